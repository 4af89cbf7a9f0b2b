/**
 * A TypeORM DataSource for one service's schema. The schema is created if missing and the service's
 * migrations run before the DataSource is handed out — never `synchronize`. Replicas starting
 * together serialise schema setup on a Postgres advisory lock held by a side connection (outside the
 * pool, so a pool of one connection cannot deadlock on it).
 */
import { Client } from 'pg';
// Before TypeORM's first load: it then loads the Postgres driver only.
import './lazy-typeorm-drivers';
import { DataSource, type MixedList, type EntitySchema } from 'typeorm';
import type { Logger } from 'pino';
import { PinoTypeOrmLogger } from './typeorm-logger';

export interface CreateDataSourceOptions {
  url: string;
  /** The owning service's schema (e.g. 'billing'); also holds its migrations table. */
  schema: string;
  // TypeORM's own option types: entity and migration classes are plain constructors.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function | string>;
  /**
   * Connections in the pool (default 10). Use 1 on the embedded store, which runs one transaction at
   * a time anyway: then a transaction never waits on a connection that waits on it.
   */
  poolSize?: number;
  logger?: Logger;
  /** Queries slower than this are logged (ms, default 1000). */
  slowQueryMs?: number;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]*$/;

export async function createDataSource(opts: CreateDataSourceOptions): Promise<DataSource> {
  if (!SCHEMA_NAME.test(opts.schema)) throw new Error(`invalid schema name '${opts.schema}'`);
  const ds = new DataSource({
    type: 'postgres',
    url: opts.url,
    schema: opts.schema,
    entities: opts.entities,
    migrations: opts.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    // Entities generate their ids in code (randomUUID), so no extension is needed — and the embedded
    // store could not install one.
    installExtensions: false,
    poolSize: opts.poolSize ?? 10,
    maxQueryExecutionTime: opts.slowQueryMs ?? 1000,
    logger: opts.logger ? new PinoTypeOrmLogger(opts.logger.child({ component: 'typeorm', schema: opts.schema })) : undefined,
    logging: opts.logger ? ['error', 'warn', 'migration'] : false,
    poolErrorHandler: (err: unknown) => opts.logger?.warn({ err }, 'idle database connection failed'),
  });

  await withMigrationLock(opts.url, `unigate:migrate:${opts.schema}`, async () => {
    try {
      await ds.initialize();
      await ds.query(`CREATE SCHEMA IF NOT EXISTS "${opts.schema}"`);
      const ran = await ds.runMigrations({ transaction: 'each' });
      if (ran.length > 0) opts.logger?.info({ schema: opts.schema, migrations: ran.map((m) => m.name) }, 'migrations applied');
      await analyzeSchema(ds, opts.schema);
    } catch (err) {
      if (ds.isInitialized) await ds.destroy().catch(() => undefined);
      throw err;
    }
  });
  return ds;
}

/**
 * Planner statistics for the schema's tables, so the first plans are made on real numbers rather
 * than an empty table's guesses (a plan made on an empty table once degraded settlement over time).
 * The embedded store has no autovacuum daemon: this is its only ANALYZE at start.
 */
export async function analyzeSchema(ds: DataSource, schema: string): Promise<void> {
  const tables: Array<{ name: string }> = await ds.query(`SELECT tablename AS name FROM pg_tables WHERE schemaname = $1`, [schema]);
  for (const t of tables) await ds.query(`ANALYZE "${schema}"."${t.name.replace(/"/g, '""')}"`);
}

async function withMigrationLock(url: string, name: string, fn: () => Promise<void>): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    try {
      await fn();
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
    }
  } finally {
    await client.end();
  }
}
