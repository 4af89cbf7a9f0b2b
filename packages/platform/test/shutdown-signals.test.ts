/**
 * A service stops gracefully on SIGTERM, SIGINT and SIGHUP, and on nothing else: asking a running
 * service for a diagnostic report (Node's --report-on-signal, SIGUSR2 by default) leaves it serving.
 * Nest's default shutdown hooks also took SIGUSR2 and the fault signals; with them the report's
 * signal shut the service down. A real process (runService with an empty module), real signals.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, httpStatus, startNodeProcess, waitFor, type NodeProcess } from '@unigate/testing';

async function startService(reportDir: string): Promise<{ proc: NodeProcess; url: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = await startNodeProcess({
    name: 'signals',
    script: join(__dirname, 'fixtures', 'empty-service.js'),
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_OPTIONS: [process.env.NODE_OPTIONS, '--report-on-signal', `--report-directory=${reportDir}`].filter(Boolean).join(' '),
    },
    readyUrl: `${url}/health/live`,
    timeoutMs: 20_000,
  });
  return { proc, url };
}

describe('the signals that stop a service', () => {
  let reportDir: string;
  let proc: NodeProcess | undefined;

  beforeEach(() => (reportDir = mkdtempSync(join(tmpdir(), 'unigate-signals-'))));
  afterEach(async () => {
    await proc?.kill();
    proc = undefined;
    rmSync(reportDir, { recursive: true, force: true });
  });

  it('keeps serving after SIGUSR2 (a diagnostic report), then stops on SIGTERM', async () => {
    const service = await startService(reportDir);
    proc = service.proc;
    process.kill(proc.pid, 'SIGUSR2');
    // The report is written synchronously by the signal's handler; give a wrong shutdown time to show.
    await waitFor('the diagnostic report', () => readdirSync(reportDir).length > 0, 5_000);
    expect(readdirSync(reportDir).filter((f) => f.endsWith('.json'))).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 500));
    expect(proc.exited()).toBeUndefined();
    expect(await httpStatus(`${service.url}/health/live`)).toBe(200);
    expect(proc.logs()).not.toContain('shutdown hooks ran');

    await proc.stop();
    expect(proc.logs()).toContain('shutdown hooks ran on SIGTERM');
  }, 40_000);

  it.each(['SIGINT', 'SIGHUP'] as const)(
    'stops gracefully on %s',
    async (name) => {
      proc = (await startService(reportDir)).proc;
      await proc.stop(name);
      // Ended by the signal itself (Nest raises it again once its hooks ran), not by stop()'s SIGKILL
      // after its grace.
      expect(proc.exited()).not.toBe('signal SIGKILL');
      expect(proc.logs()).toContain(`shutdown hooks ran on ${name}`);
    },
    40_000,
  );
});
