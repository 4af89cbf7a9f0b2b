/**
 * `npm start`'s entry (apps/standalone/dist/main.js) starts the embedded Postgres before it loads the
 * rest of the gateway. A start that fails after that (here: a UNIGATE_CONFIG that does not exist,
 * which the catalog reads only once the gateway's modules are loaded) says why on stderr and exits 1:
 * the database's worker thread does not keep the process alive. The data directory it made then
 * serves a normal start. Run on the built entry, as `npm start` runs it.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '@unigate/platform/database';
import { appScript, freePort, startNodeProcess } from '@unigate/testing';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'unigate-start-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

test('a start that fails once the database runs exits 1 saying why, and its data directory then starts', async () => {
  const [port, simPort] = [await freePort(), await freePort()];
  const env = { ...process.env, PORT: String(port), UNIGATE_SIM_PORT: String(simPort), UNIGATE_DATA_DIR: dataDir, LOG_LEVEL: 'warn' };

  const failed = await failedStart({ ...env, UNIGATE_CONFIG: join(dataDir, 'missing.yaml') });
  expect(failed.code).toBe(1);
  expect(failed.stderr).toMatch(/^Invalid UNIGATE_CONFIG \(.*missing\.yaml\):\n {2}- cannot read the file: ENOENT/);
  expect(failed.stderr).not.toMatch(/unhandled|Unhandled/);

  const gateway = await startNodeProcess({
    name: 'standalone',
    script: appScript('standalone'),
    env,
    readyUrl: `http://127.0.0.1:${port}/health/ready`,
  });
  try {
    const key = readFileSync(join(dataDir, 'bootstrap-key'), 'utf8').trim();
    const res = await fetch(`http://127.0.0.1:${port}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    // The banner's addresses answer: the reference and the dashboard (via its log-in page), and the
    // bare address leads a browser to the dashboard.
    const banner = await waitForBanner(gateway.logs);
    for (const label of ['API docs', 'Dashboard']) {
      const url = new RegExp(`^ {2}${label} +(http\\S+)`, 'm').exec(banner)?.[1];
      expect(url).toBeDefined();
      expect((await fetch(url!)).status).toBe(200);
    }
    const root = await fetch(`http://127.0.0.1:${port}/`, { redirect: 'manual' });
    expect(root.status).toBe(303);
    expect(root.headers.get('location')).toBe('/dashboard');
  } finally {
    await gateway.stop();
  }
});

test('a data directory whose embedded database cannot be opened stops the start naming the directory, not with a WASM abort', async () => {
  const broken = join(dataDir, 'broken');
  await (await startEmbeddedPostgres(broken)).close();
  // Cut short, as a full disk or a bad copy leaves it.
  writeFileSync(join(broken, 'global', 'pg_control'), '');
  const failed = await failedStart({
    ...process.env,
    PORT: String(await freePort()),
    UNIGATE_SIM_PORT: String(await freePort()),
    UNIGATE_DATA_DIR: broken,
    LOG_LEVEL: 'warn',
  });
  expect(failed.code).toBe(1);
  expect(failed.stderr).toContain(
    `data directory ${broken}: the embedded database there is damaged and could not be opened (Postgres: PANIC: could not read file "global/pg_control"`,
  );
  expect(failed.stderr).toMatch(/Restore the directory from a backup/);
  expect(failed.stderr).not.toMatch(/Aborted|wasm/);
});

/** Runs the built entry until it exits: its code and stderr. */
function failedStart(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [appScript('standalone')], { env, timeout: 30_000 }, (_err, _out, stderr) =>
      resolve({ code: child.exitCode, stderr }),
    );
  });
}

/** The process's output once `npm start`'s banner is in it. */
async function waitForBanner(logs: () => string): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (!logs().includes('Try it:')) {
    if (Date.now() > deadline) throw new Error(`no banner in:\n${logs().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return logs();
}
