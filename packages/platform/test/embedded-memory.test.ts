/**
 * The embedded store's footprint: a new data directory is initialised by a worker of its own that
 * exits (initdb's WASM memory, about 500 MB resident, leaves with it), and the server runs with the
 * small shared_buffers of EMBEDDED_POSTGRES_CONF.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '@unigate/platform/database';

test('starting on a fresh directory leaves initdb behind, and runs with 32 MB of shared buffers', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'unigate-embedded-mem-'));
  const before = process.memoryUsage().rss;
  const pg = await startEmbeddedPostgres(dir);
  const client = new Client({ connectionString: pg.url });
  try {
    expect(existsSync(join(dir, 'PG_VERSION'))).toBe(true);
    // Measured on 2 cores: ~170 MB with initdb in its own worker, ~750 MB when the server's worker ran it.
    const grownMb = (process.memoryUsage().rss - before) / 1048576;
    expect(grownMb).toBeLessThan(400);
    await client.connect();
    const { rows } = await client.query('SHOW shared_buffers');
    expect(rows[0].shared_buffers).toBe('32MB');
  } finally {
    await client.end().catch(() => undefined);
    await pg.close();
    await rm(dir, { recursive: true, force: true });
  }
});
