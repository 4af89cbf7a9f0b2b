/**
 * `node apps/standalone/dist/prepare-template.js [dir]`, which the image build runs: it makes the
 * embedded store's template cluster once (a second run leaves it as it is), a new data directory
 * started from it is a working Postgres, and a template it cannot make is an exit code and a line
 * saying why. Run on the built script, as the Dockerfile runs it.
 */
import { execFile } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '@unigate/platform/database';
import { ROOT } from '@unigate/testing';
import { Client } from 'pg';

const SCRIPT = join(ROOT, 'apps', 'standalone', 'dist', 'prepare-template.js');

function prepare(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...args], { timeout: 90_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'unigate-prepare-template-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

test('makes the template once, and a data directory copied from it serves queries', async () => {
  const template = join(root, 'template');
  const first = await prepare(template);
  expect(first).toMatchObject({ code: 0, stdout: `embedded Postgres template: ${template}\n` });
  const made = statSync(join(template, 'PG_VERSION')).mtimeMs;

  const again = await prepare(template);
  expect(again.code).toBe(0);
  expect(statSync(join(template, 'PG_VERSION')).mtimeMs).toBe(made);

  const pg = await startEmbeddedPostgres(join(root, 'data'), { template });
  const client = new Client({ connectionString: pg.url });
  try {
    await client.connect();
    const { rows } = await client.query<{ v: string }>('SELECT current_setting($1) AS v', ['server_version_num']);
    expect(Number(rows[0].v)).toBeGreaterThan(150000);
  } finally {
    await client.end();
    await pg.close();
  }
});

test('fails with a line saying why when the template cannot be made, and leaves nothing behind', async () => {
  const file = join(root, 'a-file');
  writeFileSync(file, '');
  const result = await prepare(join(file, 'template'));
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/^could not make the embedded Postgres template: ENOTDIR/);
  expect(existsSync(join(file, 'template'))).toBe(false);
});
