/**
 * `@unigate/platform/database`: Postgres through TypeORM, and the embedded Postgres of standalone.
 * A subpath of its own so that services without a database (edge, catalog, media) never load
 * TypeORM and the pg driver.
 */
export * from './data-source';
export * from './embedded-postgres';
export * from './bigint-column';
export * from './prepared-query';
export * from './jsonb';
