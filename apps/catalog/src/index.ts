/** What other workspaces (standalone, edge tests) use from the catalog service. */
export { createCatalog, type CreateCatalogOptions } from './create-catalog';
export { CatalogService, type CatalogData } from './lookup/catalog.service';
export { BUILTIN_MODELS } from './domain/models';
export { orderChannels } from './lookup/channel-order';
export { seededRandom, type RandomSource } from './lookup/random';

export { ConfigError } from './config/config-error';
export { loadCatalogConfig, parseCatalogConfig } from './config/load-config';
export { buildCatalogData, simulatorChannel, type Env } from './config/build-catalog-data';
export type { CatalogConfig } from './config/config.schema';
