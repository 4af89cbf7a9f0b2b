/**
 * Local test infrastructure: make sure Postgres and Redis answer, and host the Kafka wire-protocol
 * test broker (librdkafka's mock cluster inside `kcat`, see /work/shared/INFRA.md).
 *
 * This file imports node built-ins only: jest's global setup loads it straight
 * from source through packages/testing/jest/load-ts.js, before (or without) any build.
 */
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const POSTGRES = { host: '127.0.0.1', port: 5432 } as const;
export const REDIS = { host: '127.0.0.1', port: 6379 } as const;

/** How long a locally started Postgres/Redis may take before we give up. */
const START_TIMEOUT_MS = 30_000;

/**
 * KAFKA_FETCH_MAX_WAIT_MS for consumers on the test broker. librdkafka's mock never answers a waiting
 * fetch early, so every consumed event waits this long; the services' default (1 s) suits a real broker.
 */
export const MOCK_KAFKA_FETCH_MAX_WAIT_MS = 100;

/**
 * NODE_OPTIONS the Helm chart and docker-compose give every distributed service (the simulator aside):
 * a young generation of 3 × 8 MiB instead of V8's 3 × 16 (docs/operations.md "Memory").
 */
export const SERVICE_NODE_OPTIONS = '--max-semi-space-size=8';

/**
 * MALLOC_MMAP_THRESHOLD_ the chart and docker-compose give every distributed service: glibc's malloc
 * serves blocks of 128 KiB and more with their own mappings, returned to the system when freed. Its
 * default starts there too but raises the threshold after each such block is freed, after which large
 * blocks come from its arenas and stay resident: chat's memory outside the V8 heap peaked at 33 MiB
 * under load against 16.5 with this (docs/operations.md "Memory").
 */
export const SERVICE_MALLOC_MMAP_THRESHOLD = '131072';

export interface KafkaTestBroker {
  /** host:port list for kafkajs (`KAFKA_BROKERS`). */
  brokers: string[];
  /** pid of the watchdog process group leader; killing the group stops kcat too. */
  pid: number;
  stop(): Promise<void>;
  /** Synchronous best-effort kill for process 'exit' handlers, where nothing can be awaited. */
  killSync(): void;
  /** Freezes the broker (SIGSTOP): clients see an outage, then `resume()` brings it back as it was. */
  pause(): void;
  resume(): void;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves true when host:port accepts a TCP connection within timeoutMs. */
export function tcpAccepts(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Sends one raw protocol message and resolves with whatever arrives first (or '' on failure).
 * Enough to tell a live Redis (`PING` → `+PONG`) or Postgres (SSLRequest → `N`/`S`) from a
 * half-started one, without pulling a client library into global setup.
 */
function probe(host: string, port: number, payload: Buffer, timeoutMs = 1000): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    let settled = false;
    const done = (answer: string) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done(''));
    socket.once('connect', () => socket.write(payload));
    socket.once('data', (chunk) => done(chunk.toString('latin1')));
    socket.once('error', () => done(''));
    socket.once('close', () => done(''));
  });
}

export async function redisAnswers(): Promise<boolean> {
  return (await probe(REDIS.host, REDIS.port, Buffer.from('PING\r\n'))).startsWith('+PONG');
}

/** SSLRequest (length 8, code 80877103): a running postmaster answers a single 'N' or 'S'. */
export async function postgresAnswers(): Promise<boolean> {
  const sslRequest = Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]);
  const answer = await probe(POSTGRES.host, POSTGRES.port, sslRequest);
  return answer === 'N' || answer === 'S';
}

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(200);
  }
  throw new Error(`${what} did not become ready within ${timeoutMs} ms`);
}

function run(command: string, args: string[]): void {
  try {
    execFileSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: START_TIMEOUT_MS });
  } catch (err) {
    const e = err as { stderr?: Buffer; message: string };
    throw new Error(`\`${command} ${args.join(' ')}\` failed: ${e.stderr?.toString().trim() || e.message}`);
  }
}

/** Starts the local cluster with the INFRA.md command when Postgres does not answer. */
export async function ensurePostgres(): Promise<void> {
  if (await postgresAnswers()) return;
  if (!existsSync('/etc/postgresql')) {
    throw new Error('Postgres is not answering on 127.0.0.1:5432 and is not installed (apt-get install -y postgresql; .ci/run does this)');
  }
  for (const version of readdirSync('/etc/postgresql')) {
    run('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start']);
  }
  await waitUntil('Postgres on 127.0.0.1:5432', postgresAnswers, START_TIMEOUT_MS);
}

/** Starts redis-server with the INFRA.md flags when Redis does not answer. */
export async function ensureRedis(): Promise<void> {
  if (await redisAnswers()) return;
  run('redis-server', [
    '--daemonize',
    'yes',
    '--bind',
    '127.0.0.1',
    '-::1',
    '--port',
    String(REDIS.port),
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    '/var/lib/redis',
    '--logfile',
    '/var/log/redis/ci.log',
  ]);
  await waitUntil('Redis on 127.0.0.1:6379', redisAnswers, START_TIMEOUT_MS);
}

function kcatInstalled(): boolean {
  try {
    execFileSync('kcat', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** `... replaced with 127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3` → ['127.0.0.1:P1', ...] */
export function parseMockBootstrap(stderr: string): string[] | undefined {
  const match = /replaced with (\S+)/.exec(stderr);
  return match ? match[1].split(',').filter(Boolean) : undefined;
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts librdkafka's mock cluster (3 brokers) inside kcat. kcat runs under a small shell watchdog in
 * its own process group: stop() kills the group, and if the owning process dies without cleaning up
 * (SIGKILL, crash) the watchdog notices within a second and kills kcat, so no broker outlives its run.
 */
export async function startKafkaTestBroker(options: { ownerPid?: number; timeoutMs?: number } = {}): Promise<KafkaTestBroker> {
  if (!kcatInstalled()) {
    throw new Error('kcat is not installed: the Kafka test broker needs it. Run `apt-get install -y kcat` (.ci/run installs it).');
  }
  const ownerPid = options.ownerPid ?? process.pid;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const dir = mkdtempSync(join(tmpdir(), 'unigate-kafka-'));
  const logPath = join(dir, 'kcat.stderr');
  const watchdog = [
    'kcat -q -X test.mock.num.brokers=3 -b localhost:1 -C -t __keepalive -o end 2>"$KCAT_LOG" &',
    'k=$!',
    "trap 'kill $k 2>/dev/null; exit 0' TERM INT HUP",
    'while kill -0 "$OWNER_PID" 2>/dev/null && kill -0 $k 2>/dev/null; do sleep 1; done',
    'kill $k 2>/dev/null',
  ].join('\n');
  // stdout/stderr go to a file, not a pipe: nothing has to keep draining them for kcat to stay alive.
  const out = openSync(join(dir, 'watchdog.log'), 'w');
  const child = spawn('sh', ['-c', watchdog], {
    detached: true,
    stdio: ['ignore', out, out],
    env: { ...process.env, KCAT_LOG: logPath, OWNER_PID: String(ownerPid) },
  });
  closeSync(out);
  child.unref();
  const pid = child.pid;
  if (!pid) throw new Error('could not spawn the Kafka test broker (sh -c kcat …)');

  const stop = async () => {
    killGroup(pid, 'SIGCONT'); // a paused broker takes no SIGTERM until it runs again
    killGroup(pid, 'SIGTERM');
    // kcat takes up to ~1 s to leave after SIGTERM; do not leave it behind.
    for (let i = 0; i < 30 && groupAlive(pid); i += 1) await sleep(100);
    killGroup(pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    const deadline = Date.now() + timeoutMs;
    let brokers: string[] | undefined;
    while (!brokers) {
      if (Date.now() > deadline) throw new Error('no bootstrap list on kcat stderr');
      if (!groupAlive(pid)) throw new Error('kcat exited');
      brokers = parseMockBootstrap(existsSync(logPath) ? readFileSync(logPath, 'utf8') : '');
      if (!brokers) await sleep(50);
    }
    for (const broker of brokers) {
      const [host, port] = broker.split(':');
      await waitUntil(`Kafka test broker ${broker}`, () => tcpAccepts(host, Number(port)), Math.max(1000, deadline - Date.now()));
    }
    const killSync = () => {
      killGroup(pid, 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    };
    return { brokers, pid, stop, killSync, pause: () => killGroup(pid, 'SIGSTOP'), resume: () => killGroup(pid, 'SIGCONT') };
  } catch (err) {
    const log = existsSync(logPath) ? readFileSync(logPath, 'utf8').trim() : '';
    await stop();
    throw new Error(
      `Kafka test broker (kcat mock cluster) failed to start: ${(err as Error).message}${log ? `\nkcat stderr:\n${log}` : ''}`,
    );
  }
}
