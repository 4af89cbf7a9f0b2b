/**
 * TypeORM's DriverFactory requires the driver of every database it supports when it loads (MySQL,
 * SQL Server, Oracle, SAP, Spanner, CockroachDB, MongoDB, SQLite and its mobile variants: ~1.2 MB of
 * source, with their query runners), and we use one: Postgres. Each process that loads TypeORM kept
 * them all in memory for nothing. This puts a factory in its place in the module cache before TypeORM
 * loads: `postgres` gets its driver straight away, any other type goes to TypeORM's own factory,
 * loaded then — so every type works as before, and only a Postgres process skips the rest.
 *
 * It is imported by data-source.ts ahead of `typeorm`; in every app that is TypeORM's first load. If
 * something loaded TypeORM earlier, or a TypeORM release moves the factory, it changes nothing.
 */
import { existsSync } from 'node:fs';
import Module from 'node:module';
import { dirname, join } from 'node:path';

interface DataSourceLike {
  options: { type: string };
}

type DriverClass = new (dataSource: DataSourceLike) => unknown;

function loadTypeormDriversLazily(): void {
  let root: string;
  try {
    root = dirname(require.resolve('typeorm'));
  } catch {
    return;
  }
  const factoryPath = join(root, 'driver', 'DriverFactory.js');
  const postgresPath = join(root, 'driver', 'postgres', 'PostgresDriver.js');
  if (require.cache[factoryPath] || !existsSync(factoryPath) || !existsSync(postgresPath)) return;

  let original: { create(dataSource: DataSourceLike): unknown } | undefined;
  class DriverFactory {
    create(dataSource: DataSourceLike): unknown {
      if (dataSource.options.type === 'postgres') {
        // By path: TypeORM's exports map has no entry for its driver modules.
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { PostgresDriver } = require(postgresPath) as { PostgresDriver: DriverClass };
        return new PostgresDriver(dataSource);
      }
      if (!original) {
        // TypeORM's own factory, with every driver, from its file (this entry leaves the cache first).
        delete require.cache[factoryPath];
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { DriverFactory: Real } = require(factoryPath) as { DriverFactory: new () => { create(ds: DataSourceLike): unknown } };
        original = new Real();
      }
      return original.create(dataSource);
    }
  }
  const entry = new Module(factoryPath);
  entry.filename = factoryPath;
  entry.loaded = true;
  entry.exports = { DriverFactory };
  require.cache[factoryPath] = entry;
}

loadTypeormDriversLazily();
