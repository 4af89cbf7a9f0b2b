/**
 * A new data directory: a copy of a template made once by initdb (cluster-template.ts), or, when no
 * template can be had, initdb in place. Either way initdb runs in a worker of its own that exits
 * (its WASM memory, about 500 MB resident, leaves with it), and the server runs with the small
 * shared_buffers of EMBEDDED_POSTGRES_CONF.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '@unigate/platform/database';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'unigate-embedded-new-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

async function withClient<T>(pg: EmbeddedPostgres, run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: pg.url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

test('a fresh directory is copied from a template made once, leaving initdb behind, with 32 MB of shared buffers', async () => {
  const template = join(root, 'cache', 'pglite');
  const first = join(root, 'first');
  const before = process.memoryUsage().rss;
  const pg = await startEmbeddedPostgres(first, { template });
  try {
    expect(existsSync(join(template, 'PG_VERSION'))).toBe(true);
    expect(existsSync(join(first, 'PG_VERSION'))).toBe(true);
    // Measured on 2 cores: ~170 MB with initdb in its own worker, ~750 MB when the server's worker ran it.
    const grownMb = (process.memoryUsage().rss - before) / 1048576;
    expect(grownMb).toBeLessThan(400);
    await withClient(pg, async (client) => {
      expect((await client.query('SHOW shared_buffers')).rows[0].shared_buffers).toBe('32MB');
      await client.query('CREATE TABLE only_here (x int)');
    });
  } finally {
    await pg.close();
  }
  // A second directory from the same template: a cluster of its own, without the first one's table.
  const second = await startEmbeddedPostgres(join(root, 'second'), { template });
  try {
    await withClient(second, async (client) => {
      expect((await client.query(`SELECT to_regclass('only_here') AS t`)).rows[0].t).toBeNull();
      expect((await client.query('SELECT 1 + 1 AS two')).rows[0].two).toBe(2);
    });
  } finally {
    await second.close();
  }
});

test('without a usable template location, initdb runs in the directory itself', async () => {
  // The template's parent is a file: no template can be made there (as on a read-only install).
  writeFileSync(join(root, 'not-a-dir'), '');
  const dir = join(root, 'in-place');
  const pg = await startEmbeddedPostgres(dir, { template: join(root, 'not-a-dir', 'pglite') });
  try {
    expect(existsSync(join(dir, 'PG_VERSION'))).toBe(true);
    await withClient(pg, async (client) => expect((await client.query('SELECT 1 + 1 AS two')).rows[0].two).toBe(2));
  } finally {
    await pg.close();
  }
});
