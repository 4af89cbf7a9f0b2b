/**
 * `@unigate/catalog/lookup`: resolving model names from catalogue data — what the catalog service
 * serves and what every edge replica runs on its own copy — without the rest of the catalog service.
 */
export { CatalogService, isPrefixAlias, type CatalogData } from './catalog.service';
export { orderChannels } from './channel-order';
export { seededRandom, type RandomSource } from './random';
export { toSnapshot, fromSnapshot } from './snapshot';
