/**
 * createDataSource on the local Postgres and on the embedded store (PGlite behind the embedded wire server):
 * schema creation, migrations once, persistence across restarts, and no lost update under concurrent
 * row-locking transactions on the embedded store (INFRA.md: it runs one transaction at a time).
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Column, Entity, PrimaryColumn, type DataSource, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@unigate/testing';
import { createLogger } from '@unigate/platform';
import {
  bigintTransformer,
  createDataSource,
  DATA_DIR_LOCK,
  EMBEDDED_POOL_SIZE,
  prepareEmbeddedTemplate,
  processIdentity,
  startEmbeddedPostgres,
} from '@unigate/platform/database';
import { Client } from 'pg';

@Entity({ name: 'counters' })
class Counter {
  @PrimaryColumn('text') id!: string;
  @Column('bigint', { transformer: bigintTransformer }) value!: number;
}

class CreateCounters1700000000000 implements MigrationInterface {
  name = 'CreateCounters1700000000000';
  async up(q: QueryRunner) {
    await q.query(`CREATE TABLE platform_test.counters (id text PRIMARY KEY, value bigint NOT NULL)`);
  }
  async down(q: QueryRunner) {
    await q.query(`DROP TABLE platform_test.counters`);
  }
}

const logger = createLogger('database-test', 'silent');
const open = (url: string, poolSize?: number) =>
  createDataSource({ url, schema: 'platform_test', entities: [Counter], migrations: [CreateCounters1700000000000], poolSize, logger });

/** 40 concurrent read-lock-increment transactions: exact only if the store really serialises them. */
async function concurrentIncrements(ds: DataSource, n: number): Promise<number> {
  await ds.getRepository(Counter).save({ id: 'c', value: 0 });
  await Promise.all(
    Array.from({ length: n }, () =>
      ds.transaction(async (m) => {
        const row = await m
          .getRepository(Counter)
          .createQueryBuilder('c')
          .setLock('pessimistic_write')
          .where('c.id = :id', { id: 'c' })
          .getOneOrFail();
        await new Promise((r) => setImmediate(r)); // give other transactions every chance to interleave
        await m.update(Counter, { id: 'c' }, { value: row.value + 1 });
      }),
    ),
  );
  return (await ds.getRepository(Counter).findOneByOrFail({ id: 'c' })).value;
}

describe('on Postgres', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('platform_db');
  });
  afterAll(() => db.drop());

  test('creates the schema, migrates once, and replicas starting together do not collide', async () => {
    const [a, b] = await Promise.all([open(db.url), open(db.url)]);
    const applied = await a.query(`SELECT name FROM platform_test.migrations`);
    expect(applied.map((r: { name: string }) => r.name)).toEqual(['CreateCounters1700000000000']);
    expect(await concurrentIncrements(a, 40)).toBe(40);
    expect((await b.getRepository(Counter).findOneByOrFail({ id: 'c' })).value).toBe(40);
    await Promise.all([a.destroy(), b.destroy()]);
  });
});

describe('on the embedded store', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'unigate-pglite-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  test('serialises concurrent locking transactions exactly and keeps data across restarts', async () => {
    const pg = await startEmbeddedPostgres(dir);
    const ds = await open(pg.url, EMBEDDED_POOL_SIZE);
    expect(await concurrentIncrements(ds, 40)).toBe(40);
    await ds.destroy();
    // Even with several connections the store itself runs one transaction at a time.
    const wide = await open(pg.url, 4);
    expect(await concurrentIncrements(wide, 40)).toBe(40);
    await wide.destroy();
    await pg.close();

    const again = await startEmbeddedPostgres(dir);
    const ds2 = await open(again.url, EMBEDDED_POOL_SIZE);
    expect((await ds2.getRepository(Counter).findOneByOrFail({ id: 'c' })).value).toBe(40);
    const applied = await ds2.query(`SELECT name FROM platform_test.migrations`);
    expect(applied).toHaveLength(1);
    await ds2.destroy();
    await again.close();
  });

  test('a new directory is the template copied beside the files already there; a copy cut short is made again', async () => {
    const template = await prepareEmbeddedTemplate();
    const fresh = join(dir, 'fresh');
    mkdirSync(fresh);
    writeFileSync(join(fresh, 'bootstrap-key'), 'sk-1');
    // A copy the process died in: part of the files, each database's files emptied (not yet written), no marker.
    const cut = join(dir, 'cut');
    cpSync(join(template, 'base'), join(cut, 'base'), { recursive: true });
    for (const db of readdirSync(join(cut, 'base'))) {
      for (const file of readdirSync(join(cut, 'base', db))) writeFileSync(join(cut, 'base', db, file), '');
    }
    expect(existsSync(join(cut, 'PG_VERSION'))).toBe(false);

    for (const d of [fresh, cut]) {
      const pg = await startEmbeddedPostgres(d, { template });
      const client = new Client({ connectionString: pg.url });
      try {
        await client.connect();
        const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM pg_class');
        expect(Number(rows[0].n)).toBeGreaterThan(100);
      } finally {
        await client.end();
        await pg.close();
      }
      expect(readFileSync(join(d, 'PG_VERSION'), 'utf8')).toBe(readFileSync(join(template, 'PG_VERSION'), 'utf8'));
    }
    expect(readFileSync(join(fresh, 'bootstrap-key'), 'utf8')).toBe('sk-1');
  });

  test('one process per data directory: a second start is refused while a store runs there; a dead owner is taken over', async () => {
    const d = join(dir, 'locked');
    const template = await prepareEmbeddedTemplate();
    const pg = await startEmbeddedPostgres(d, { template });
    // Two stores on the same files: each would run its own Postgres there, and the last to write wins.
    await expect(startEmbeddedPostgres(d, { template })).rejects.toThrow(/in use by this process/);
    await pg.close();
    expect(existsSync(join(d, DATA_DIR_LOCK))).toBe(false);
    // Another process's: refused while it runs, taken over once it is gone (a kill -9 leaves its file).
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => undefined, 60_000)']);
    try {
      await new Promise((ok) => other.once('spawn', ok));
      writeFileSync(join(d, DATA_DIR_LOCK), `${other.pid}\n`);
      await expect(startEmbeddedPostgres(d, { template })).rejects.toThrow(new RegExp(`in use by process ${other.pid}`));
    } finally {
      other.kill('SIGKILL');
    }
    await new Promise((ok) => other.once('exit', ok));
    const again = await startEmbeddedPostgres(d, { template });
    // The pid and what tells this process apart from a later one given the same pid.
    expect(readFileSync(join(d, DATA_DIR_LOCK), 'utf8').trim()).toBe(`${process.pid} ${processIdentity(process.pid)}`);
    expect(processIdentity(process.pid)).toMatch(/^[0-9a-f-]{36}:\d+$/);
    await again.close();
  });

  test("a dead owner's pid reused by another process (a restarted container, a reboot) does not keep the directory locked", async () => {
    const d = join(dir, 'reused');
    const template = await prepareEmbeddedTemplate();
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => undefined, 60_000)']);
    try {
      await new Promise((ok) => other.once('spawn', ok));
      const identity = processIdentity(other.pid!);
      mkdirSync(d, { recursive: true });
      // The file a process with this pid left, started at another time: not the process running now.
      const [boot, ticks] = identity.split(':');
      writeFileSync(join(d, DATA_DIR_LOCK), `${other.pid} ${boot}:${Number(ticks) - 1}\n`);
      const pg = await startEmbeddedPostgres(d, { template });
      expect(readFileSync(join(d, DATA_DIR_LOCK), 'utf8').trim()).toBe(`${process.pid} ${processIdentity(process.pid)}`);
      await pg.close();
      // The file that process itself wrote: it runs, so the start is refused.
      writeFileSync(join(d, DATA_DIR_LOCK), `${other.pid} ${identity}\n`);
      await expect(startEmbeddedPostgres(d, { template })).rejects.toThrow(new RegExp(`in use by process ${other.pid}`));
    } finally {
      other.kill('SIGKILL');
    }
  });

  test("a dead owner's lock is taken over by one start only: another one mid-takeover wins, and this start is refused", async () => {
    const d = join(dir, 'race');
    mkdirSync(d, { recursive: true });
    const lock = join(d, DATA_DIR_LOCK);
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((ok) => dead.once('exit', ok));
    writeFileSync(lock, `${dead.pid}\n`);
    // Another process read the same dead pid first and holds the claim; it writes its own lock, then lets go.
    writeFileSync(`${lock}.takeover`, 'other\n');
    const script = `const fs = require('node:fs'); setTimeout(() => { fs.writeFileSync(${JSON.stringify(lock)}, process.pid + '\\n'); fs.rmSync(${JSON.stringify(`${lock}.takeover`)}); }, 300); setTimeout(() => undefined, 60_000);`;
    const winner = spawn(process.execPath, ['-e', script]);
    try {
      await new Promise((ok) => winner.once('spawn', ok));
      await expect(startEmbeddedPostgres(d, { template: await prepareEmbeddedTemplate() })).rejects.toThrow(
        new RegExp(`in use by process ${winner.pid}`),
      );
      expect(readFileSync(lock, 'utf8').trim()).toBe(String(winner.pid));
    } finally {
      winner.kill('SIGKILL');
    }
  });

  /** A cluster in `d` holding a table `kept` with one row, closed. */
  async function clusterKeeping42(d: string, template: string): Promise<void> {
    const pg = await startEmbeddedPostgres(d, { template });
    const client = new Client({ connectionString: pg.url });
    await client.connect();
    await client.query(`CREATE TABLE kept (v int); INSERT INTO kept VALUES (42)`);
    await client.end();
    await pg.close();
  }

  /** The rows of `kept` in the cluster in `d`, read by a start of its own. */
  async function keptValues(d: string, template: string): Promise<Array<{ v: number }>> {
    const back = await startEmbeddedPostgres(d, { template });
    const again = new Client({ connectionString: back.url });
    try {
      await again.connect();
      return (await again.query<{ v: number }>('SELECT v FROM kept')).rows;
    } finally {
      await again.end();
      await back.close();
    }
  }

  test('a cluster that lost its PG_VERSION is refused, not replaced by an empty one', async () => {
    const d = join(dir, 'damaged');
    const template = await prepareEmbeddedTemplate();
    await clusterKeeping42(d, template);
    const version = readFileSync(join(d, 'PG_VERSION'), 'utf8');
    rmSync(join(d, 'PG_VERSION'));
    await expect(startEmbeddedPostgres(d, { template })).rejects.toThrow(/without its PG_VERSION file/);
    // Nothing was copied over it: with the file back, the data is there.
    writeFileSync(join(d, 'PG_VERSION'), version);
    expect(await keptValues(d, template)).toEqual([{ v: 42 }]);
  });

  test('a cluster Postgres cannot open (pg_control cut short, the WAL gone) is refused naming the directory, and left as it was', async () => {
    const d = join(dir, 'unreadable');
    const template = await prepareEmbeddedTemplate();
    await clusterKeeping42(d, template);
    const refusal = () =>
      startEmbeddedPostgres(d, { template }).then(
        async (started) => {
          await started.close();
          return 'started';
        },
        (err: Error) => err.message,
      );
    const damaged = `data directory ${d}: the embedded database there is damaged and could not be opened (Postgres: PANIC: `;

    const control = join(d, 'global', 'pg_control');
    const controlBytes = readFileSync(control);
    writeFileSync(control, '');
    const noControl = await refusal();
    expect(noControl).toContain(`${damaged}could not read file "global/pg_control"`);
    expect(noControl).toMatch(/Restore the directory from a backup/);
    expect(noControl).not.toMatch(/Aborted|wasm/);
    expect(existsSync(join(d, DATA_DIR_LOCK))).toBe(false);
    writeFileSync(control, controlBytes);

    const wal = join(d, 'pg_wal');
    const aside = join(dir, 'unreadable-wal');
    mkdirSync(aside);
    const segments = readdirSync(wal).filter((f) => /^[0-9A-F]{24}$/.test(f));
    expect(segments.length).toBeGreaterThan(0);
    for (const f of segments) renameSync(join(wal, f), join(aside, f));
    expect(await refusal()).toContain(`${damaged}could not locate a valid checkpoint record`);
    for (const f of segments) renameSync(join(aside, f), join(wal, f));

    // Nothing was repaired or replaced: with the files back, the data is there.
    expect(await keptValues(d, template)).toEqual([{ v: 42 }]);
  });

  test("a directory it makes is its owner's only (PGlite writes the store's files world-writable)", async () => {
    const made = join(dir, 'made', 'data');
    const pg = await startEmbeddedPostgres(made, { template: await prepareEmbeddedTemplate() });
    await pg.close();
    expect(statSync(made).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'made')).mode & 0o777).toBe(0o700);
  });
});
