/**
 * Build the catalogue from the environment: the built-in models, routed to the simulator at
 * UNIGATE_SIM_URL, adjusted by the UNIGATE_CONFIG file when one is named. Throws ConfigError on a bad file.
 * Used by the Nest module here and by the standalone app in-process.
 */
import { buildCatalogData, type Env } from './config/build-catalog-data';
import { catalogConfigSchema } from './config/config.schema';
import { loadCatalogConfig } from './config/load-config';
import { CatalogService } from './lookup/catalog.service';
import type { RandomSource } from './lookup/random';

/** Where `npm start` serves the simulator: every model's upstream unless UNIGATE_CONFIG routes it. */
export const DEFAULT_SIM_URL = 'http://127.0.0.1:8090';

export interface CreateCatalogOptions {
  /** Defaults to process.env. Reads UNIGATE_CONFIG, UNIGATE_SIM_URL and the providers' api_key_env names. */
  env?: Env;
  /** Defaults to Math.random; inject a seeded source for reproducible channel order. */
  random?: RandomSource;
}

export function createCatalog(options: CreateCatalogOptions = {}): CatalogService {
  const env = options.env ?? process.env;
  const path = env.UNIGATE_CONFIG?.trim();
  const config = path ? loadCatalogConfig(path) : catalogConfigSchema.parse({});
  const simUrl = env.UNIGATE_SIM_URL?.trim() || DEFAULT_SIM_URL;
  return new CatalogService(buildCatalogData(config, env, simUrl, path || 'defaults'), options.random);
}
