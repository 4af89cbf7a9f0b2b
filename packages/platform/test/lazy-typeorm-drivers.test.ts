/**
 * database/lazy-typeorm-drivers.ts in a real process: with the platform's database module loaded
 * first (as in every app), a Postgres DataSource works against the real Postgres and TypeORM loads no
 * other database's driver; any other type still reaches TypeORM's own factory, failing exactly as it
 * does without the change. Counted from the module cache, not timed.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { POSTGRES_ADMIN_URL, ROOT } from '@unigate/testing';

const DATABASE = join(ROOT, 'packages', 'platform', 'dist', 'database', 'index.js');

// argv: the database module (or '' to load TypeORM first, as if nothing had changed), the DataSource options.
const PROBE = `
const [database, options] = process.argv.slice(1);
if (!database) require('typeorm');
else require(database);
const { DataSource } = require('typeorm');
(async () => {
  const out = {};
  try {
    const ds = new DataSource(JSON.parse(options));
    await ds.initialize();
    out.answer = (await ds.query('SELECT 40 + 2 AS n'))[0].n;
    await ds.destroy();
  } catch (err) {
    out.error = err.constructor.name + ': ' + err.message;
  }
  out.drivers = [...new Set(Object.keys(require.cache).filter((k) => /[\\\\/]typeorm[\\\\/]driver[\\\\/][^\\\\/]+[\\\\/]/.test(k)).map((k) => k.split(/[\\\\/]driver[\\\\/]/)[1].split(/[\\\\/]/)[0]))].sort();
  process.stdout.write(JSON.stringify(out));
})();
`;

// Each a folder of typeorm/driver/ (sqlserver is left out: TypeORM's index loads its MssqlParameter itself).
const OTHER_DATABASES = [
  'aurora-mysql',
  'aurora-postgres',
  'better-sqlite3',
  'capacitor',
  'cockroachdb',
  'cordova',
  'expo',
  'mongodb',
  'mysql',
  'nativescript',
  'oracle',
  'react-native',
  'sap',
  'spanner',
  'sqljs',
];

const probe = (database: string, options: object) =>
  JSON.parse(execFileSync(process.execPath, ['-e', PROBE, database, JSON.stringify(options)], { cwd: ROOT, encoding: 'utf8' })) as {
    answer?: number;
    error?: string;
    drivers: string[];
  };

test('a Postgres DataSource works and loads the Postgres driver alone', () => {
  const lazy = probe(DATABASE, { type: 'postgres', url: POSTGRES_ADMIN_URL });
  expect(lazy.error).toBeUndefined();
  expect(lazy.answer).toBe(42);
  expect(lazy.drivers).toContain('postgres');
  expect(lazy.drivers.filter((d) => OTHER_DATABASES.includes(d))).toEqual([]);
  const eager = probe('', { type: 'postgres', url: POSTGRES_ADMIN_URL });
  expect(eager.answer).toBe(42);
  expect(eager.drivers.filter((d) => OTHER_DATABASES.includes(d))).toEqual(OTHER_DATABASES);
}, 30_000);

test.each([
  ['a supported database whose client is not installed', { type: 'oracle' }],
  ['an unknown type', { type: 'no-such-database' }],
])(
  '%s fails as it does in TypeORM itself',
  (_name, options) => {
    const lazy = probe(DATABASE, options);
    const eager = probe('', options);
    expect(eager.error).toBeDefined();
    expect(lazy.error).toBe(eager.error);
  },
  30_000,
);
