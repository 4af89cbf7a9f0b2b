/**
 * A service stops gracefully on SIGTERM, SIGINT and SIGHUP, and on nothing else: asking a running
 * service for a diagnostic report (Node's --report-on-signal, SIGUSR2 by default) leaves it serving.
 * Nest's default shutdown hooks also took SIGUSR2 and the fault signals; with them the report's
 * signal shut the service down. A real process (runService with an empty module), real signals.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '@unigate/testing';

const DISTRIBUTED = join(ROOT, 'packages', 'platform', 'dist', 'distributed.js');

// An empty service (the HTTP server with /health/* and /metrics, Nest's lifecycle, no gRPC) that says
// when Nest's shutdown hooks reach it.
const SERVICE = `
const { Module } = require('@nestjs/common');
const { runService } = require(process.argv[1]);
class Empty {
  onApplicationShutdown(signal) { process.stdout.write('shutdown hooks ran on ' + signal + '\\n'); }
}
Module({})(Empty);
void runService({ name: 'signals', module: Empty });
`;

interface Service {
  child: ChildProcess;
  url: string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output: () => string;
}

async function startService(reportDir: string): Promise<Service> {
  const child = spawn(process.execPath, ['--report-on-signal', `--report-directory=${reportDir}`, '-e', SERVICE, DISTRIBUTED], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service did not start:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const started = /"http":"(http:\/\/[^"]+)"/.exec(output);
      if (started) {
        clearTimeout(timer);
        resolve(started[1].replace('[::1]', '127.0.0.1'));
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exit.then(() => reject(new Error(`the service exited:\n${output}`)));
  });
  return { child, url, exit, output: () => output };
}

const live = async (url: string) => (await fetch(`${url}/health/live`)).status;

describe('the signals that stop a service', () => {
  let reportDir: string;
  let service: Service | undefined;

  beforeEach(() => (reportDir = mkdtempSync(join(tmpdir(), 'unigate-signals-'))));
  afterEach(() => {
    service?.child.kill('SIGKILL');
    service = undefined;
    rmSync(reportDir, { recursive: true, force: true });
  });

  it('keeps serving after SIGUSR2 (a diagnostic report), then stops on SIGTERM', async () => {
    service = await startService(reportDir);
    expect(await live(service.url)).toBe(200);
    service.child.kill('SIGUSR2');
    // The report is written synchronously by the signal's handler; give a wrong shutdown time to show.
    for (let i = 0; i < 50 && readdirSync(reportDir).length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(readdirSync(reportDir).filter((f) => f.endsWith('.json'))).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 500));
    expect(service.child.exitCode).toBeNull();
    expect(await live(service.url)).toBe(200);
    expect(service.output()).not.toContain('shutdown hooks ran');

    service.child.kill('SIGTERM');
    await service.exit;
    expect(service.output()).toContain('shutdown hooks ran on SIGTERM');
  }, 40_000);

  it.each(['SIGINT', 'SIGHUP'] as const)(
    'stops gracefully on %s',
    async (name) => {
      service = await startService(reportDir);
      service.child.kill(name);
      await service.exit;
      expect(service.output()).toContain(`shutdown hooks ran on ${name}`);
    },
    40_000,
  );
});
