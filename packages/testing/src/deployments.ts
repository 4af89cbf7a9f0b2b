/**
 * The deployments as real processes built from dist/: the upstream simulator on its own, standalone
 * (one process, embedded storage) and distributed (edge + chat + media + video + billing + catalog over gRPC, on real
 * Postgres, Redis and the Kafka test broker). The e2e suites (apps/edge/test/support/stacks.ts) and
 * `npm run bench` both start them from here, so the benchmark measures the layout the tests check.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createTestDatabase } from './database';
import { kafkaBrokers, redisUrl } from './env';
import { uniqueName } from './names';
import { MOCK_KAFKA_FETCH_MAX_WAIT_MS, SERVICE_MALLOC_MMAP_THRESHOLD, SERVICE_NODE_OPTIONS } from './infra';
import { freePort } from './net';
import { startTestS3 } from './s3';
import { startNodeProcess, type NodeProcess } from './process';

/** The repository root (the same from src/ and dist/). */
export const ROOT = resolve(__dirname, '../../..');
export const appScript = (name: string) => join(ROOT, 'apps', name, 'dist', 'main.js');

/** One public HTTP surface: an edge replica (distributed) or the standalone process. */
export interface Edge {
  /** e.g. http://127.0.0.1:PORT/v1 */
  baseURL: string;
  origin: string;
}

export interface Stack {
  name: string;
  /** e.g. http://127.0.0.1:PORT/v1 (the first edge's) */
  baseURL: string;
  origin: string;
  /** Every edge replica, the first being baseURL/origin; one entry for standalone. */
  edges: Edge[];
  simUrl: string;
  adminToken: string;
  /** Funded bootstrap key. */
  apiKey: string;
  /** Every process the deployment started (the simulator included when it brought its own). */
  processes: NodeProcess[];
  /**
   * A process's own HTTP origin (its /health and /metrics) by label: catalog, billing, chat, media,
   * video, edge, edge-2, ...; standalone's one process whatever the label.
   */
  originOf(label: string): string;
  stop(): Promise<void>;
  /**
   * Stops one process (with `signal`, SIGTERM by default, or SIGKILL with `crash`) and starts it again
   * on the same ports and data, its environment changed by `env`. Labels: catalog, billing, chat,
   * edge, edge-2, ...; standalone has one process (any label).
   */
  restart?(label: string, opts?: RestartOptions): Promise<NodeProcess>;
}

export interface RestartOptions {
  env?: Record<string, string>;
  /** SIGKILL: no shutdown hook runs. */
  crash?: boolean;
  /** The signal a clean stop is asked with (default SIGTERM). */
  signal?: NodeJS.Signals;
}

export interface DeploymentOptions {
  /** Origin of an upstream simulator already running; by default the deployment brings its own. */
  simUrl?: string;
  /** Credit of the bootstrap key in USD (default 1000). */
  creditUsd?: number;
  /** Prefix of the Postgres database and Kafka topics (default 'e2e'). */
  label?: string;
  /** How long each process may take to answer ready (default 60 s). */
  readyTimeoutMs?: number;
}

export interface DistributedOptions extends DeploymentOptions {
  /** Edge replicas sharing the services, Redis and Kafka (default 1). */
  edges?: number;
  /** Kafka bootstrap list (default: KAFKA_BROKERS, the jest run's test broker). */
  kafkaBrokers?: string[];
  /** Redis for limits and holds (default: REDIS_URL, the shared one). */
  redisUrl?: string;
  /** Consumers' KAFKA_FETCH_MAX_WAIT_MS (default MOCK_KAFKA_FETCH_MAX_WAIT_MS); null leaves the services' own default. */
  kafkaFetchMaxWaitMs?: number | null;
}

/**
 * Fast polls so a task ends within a second, fast webhook retries, and webhooks allowed to reach the
 * test's receiver on 127.0.0.1 (the private-address refusal is covered by the contracts' unit tests).
 */
export const FAST_VIDEO_ENV = {
  UNIGATE_VIDEO_POLL_BASE_MS: '50',
  UNIGATE_VIDEO_POLL_MAX_MS: '200',
  UNIGATE_WEBHOOK_RETRY_BASE_MS: '100',
  UNIGATE_WEBHOOK_ALLOW_PRIVATE: '1',
};

export const newApiKey = () => `sk-${randomBytes(30).toString('base64url').replace(/[-_]/g, 'x')}`;

export interface UpstreamSim {
  /** e.g. http://127.0.0.1:PORT (no /v1) */
  url: string;
  process: NodeProcess;
}

/** apps/upstream-sim as its own process. */
export async function startUpstreamSim(port?: number): Promise<UpstreamSim> {
  const simPort = port ?? (await freePort());
  const proc = await startNodeProcess({
    name: 'upstream-sim',
    script: appScript('upstream-sim'),
    env: { UNIGATE_SIM_PORT: String(simPort), HOST: '127.0.0.1' },
    readyUrl: `http://127.0.0.1:${simPort}/v1/models`,
  });
  return { url: `http://127.0.0.1:${simPort}`, process: proc };
}

/**
 * `npm start` as a process on a fresh data directory. With `opts.simUrl` it routes every model to that
 * simulator and serves none of its own; otherwise it serves its built-in one on a free port.
 */
export async function startStandalone(extraEnv: Record<string, string> = {}, opts: DeploymentOptions = {}): Promise<Stack> {
  const port = await freePort();
  const simPort = opts.simUrl ? undefined : await freePort();
  const simUrl = opts.simUrl ?? `http://127.0.0.1:${simPort}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'unigate-standalone-'));
  const adminToken = randomBytes(24).toString('hex');
  const apiKey = newApiKey();
  const env = {
    PORT: String(port),
    HOST: '127.0.0.1',
    ...(simPort === undefined ? { UNIGATE_SIM_URL: simUrl } : { UNIGATE_SIM_PORT: String(simPort) }),
    UNIGATE_DATA_DIR: dataDir,
    UNIGATE_ADMIN_TOKEN: adminToken,
    UNIGATE_BOOTSTRAP_KEY: apiKey,
    UNIGATE_BOOTSTRAP_CREDIT_USD: String(opts.creditUsd ?? 1000),
    LOG_LEVEL: 'warn',
    ...extraEnv,
  };
  const launch = () =>
    startNodeProcess({
      name: 'standalone',
      script: appScript('standalone'),
      env,
      readyUrl: `http://127.0.0.1:${port}/health/ready`,
      timeoutMs: opts.readyTimeoutMs ?? 60_000,
    });
  let proc: NodeProcess;
  try {
    proc = await launch();
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const origin = `http://127.0.0.1:${port}`;
  const processes = [proc];
  return {
    name: 'standalone',
    baseURL: `${origin}/v1`,
    origin,
    edges: [{ baseURL: `${origin}/v1`, origin }],
    simUrl,
    adminToken,
    apiKey,
    processes,
    originOf: () => origin,
    async stop() {
      await proc.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
    // The one process, stopped (its signal, or SIGKILL with `crash`) and started again on the same data.
    async restart(_label, o = {}) {
      await (o.crash ? proc.kill() : proc.stop(o.signal));
      Object.assign(env, o.env);
      proc = await launch();
      processes.splice(0, processes.length, proc);
      return proc;
    },
  };
}

/**
 * Catalog, billing, chat, media and video (each with an HTTP and a gRPC port) and the edge replicas in front
 * of them, on a fresh Postgres database and fresh Kafka topics. With `opts.simUrl` no simulator is started.
 */
export async function startDistributed(extraEnv: Record<string, string> = {}, opts: DistributedOptions = {}): Promise<Stack> {
  const label = opts.label ?? 'e2e';
  const db = await createTestDatabase(label);
  const prefix = `${uniqueName(label)}.`;
  const adminToken = randomBytes(24).toString('hex');
  const apiKey = newApiKey();
  const credit = String(opts.creditUsd ?? 1000);
  const edgePorts: number[] = [];
  for (let i = 0; i < (opts.edges ?? 1); i++) edgePorts.push(await freePort());
  const svc = async () => ({ http: await freePort(), grpc: await freePort() });
  const [catalog, billing, chat, media, video] = [await svc(), await svc(), await svc(), await svc(), await svc()];
  const brokers = (opts.kafkaBrokers ?? kafkaBrokers()).join(',');
  // The result bucket (alpha images) the media service writes and every edge reads, and their link secret.
  const s3 = await startTestS3();
  const storage = {
    ...s3.env(
      uniqueName(`${label}-results`)
        .toLowerCase()
        .replace(/[^a-z0-9-]/g, '-')
        .slice(0, 63),
    ),
    UNIGATE_LINK_SECRET: randomBytes(24).toString('hex'),
  };
  const fetchWait = opts.kafkaFetchMaxWaitMs === undefined ? MOCK_KAFKA_FETCH_MAX_WAIT_MS : opts.kafkaFetchMaxWaitMs;
  const common = {
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    KAFKA_BROKERS: brokers,
    KAFKA_TOPIC_PREFIX: prefix,
    // Every stack shares the one Redis: each keeps to its own keys (limits, money copies, dashboard
    // sessions and sign-up counters; all stacks' clients are 127.0.0.1).
    UNIGATE_REDIS_KEY_PREFIX: `unigate:${prefix}`,
    KAFKA_FETCH_MAX_WAIT_MS: fetchWait === null ? undefined : String(fetchWait),
    // What the chart and compose give every service (docs/operations.md "Memory").
    NODE_OPTIONS: [process.env.NODE_OPTIONS, SERVICE_NODE_OPTIONS].filter(Boolean).join(' '),
    MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? SERVICE_MALLOC_MMAP_THRESHOLD,
    ...storage,
    ...extraEnv,
  };
  const timeoutMs = opts.readyTimeoutMs ?? 60_000;
  const processes: NodeProcess[] = [];
  type Ports = { http: number; grpc?: number };
  const started = new Map<string, { name: string; ports: Ports; env: Record<string, string>; process: NodeProcess }>();
  /** `name` is the app; `label` tells replicas of one app apart in logs and errors. */
  const start = async (name: string, ports: Ports, env: Record<string, string>, label = name) => {
    const p = await startNodeProcess({
      name: label,
      script: appScript(name),
      env: { ...common, PORT: String(ports.http), ...(ports.grpc ? { GRPC_PORT: String(ports.grpc) } : {}), ...env },
      readyUrl: `http://127.0.0.1:${ports.http}/health/ready`,
      timeoutMs,
    });
    processes.push(p);
    started.set(label, { name, ports, env, process: p });
    return p;
  };
  const restart = async (label: string, o: RestartOptions = {}) => {
    const s = started.get(label);
    if (!s) throw new Error(`no process labelled ${label}`);
    await (o.crash ? s.process.kill() : s.process.stop(o.signal));
    processes.splice(processes.indexOf(s.process), 1);
    return start(s.name, s.ports, { ...s.env, ...o.env }, label);
  };
  const stop = async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await db.drop();
    await s3.stop();
  };
  // The simulator's port is known up front, so the catalog can start before it.
  const simPort = opts.simUrl ? undefined : await freePort();
  const simUrl = opts.simUrl ?? `http://127.0.0.1:${simPort}`;
  // In two waves. A process whose readiness waits for a Kafka group join (billing, each edge) waits
  // ~3 s at the broker after it has loaded: those and the catalog, which the edges need to be ready,
  // load first, on cores not yet shared with the rest; the simulator, chat, media and video load once
  // the catalog is up, while the joins wait. All at once, every process loaded at 2/7 of a core and
  // the joins began last.
  const catalogStarted = start('catalog', catalog, { UNIGATE_SIM_URL: simUrl });
  try {
    await Promise.all([
      catalogStarted,
      start('billing', billing, {
        DATABASE_URL: db.url,
        REDIS_URL: opts.redisUrl ?? redisUrl(),
        UNIGATE_BOOTSTRAP_KEY: apiKey,
        UNIGATE_BOOTSTRAP_CREDIT_USD: credit,
      }),
      // An edge retries the catalogue's snapshot until the catalog answers.
      ...edgePorts.map((port, i) =>
        start(
          'edge',
          { http: port },
          {
            CHAT_GRPC_URL: `127.0.0.1:${chat.grpc}`,
            MEDIA_GRPC_URL: `127.0.0.1:${media.grpc}`,
            VIDEO_GRPC_URL: `127.0.0.1:${video.grpc}`,
            BILLING_GRPC_URL: `127.0.0.1:${billing.grpc}`,
            CATALOG_GRPC_URL: `127.0.0.1:${catalog.grpc}`,
            REDIS_URL: opts.redisUrl ?? redisUrl(),
            UNIGATE_ADMIN_TOKEN: adminToken,
          },
          i === 0 ? 'edge' : `edge-${i + 1}`,
        ),
      ),
      catalogStarted.then(() =>
        Promise.all([
          simPort === undefined ? undefined : startUpstreamSim(simPort).then((sim) => processes.push(sim.process)),
          start('chat', chat, { DATABASE_URL: db.url }),
          start('media', media, {}),
          start('video', video, {
            DATABASE_URL: db.url,
            REDIS_URL: redisUrl(),
            BILLING_GRPC_URL: `127.0.0.1:${billing.grpc}`,
            CATALOG_GRPC_URL: `127.0.0.1:${catalog.grpc}`,
            UNIGATE_VIDEO_QUEUE_PREFIX: prefix.slice(0, -1),
          }),
        ]),
      ),
    ]);
  } catch (err) {
    await stop();
    throw err;
  }
  const edges = edgePorts.map((port) => ({ origin: `http://127.0.0.1:${port}`, baseURL: `http://127.0.0.1:${port}/v1` }));
  const { origin, baseURL } = edges[0];
  const originOf = (label: string) => {
    const s = started.get(label);
    if (!s) throw new Error(`no process labelled ${label}`);
    return `http://127.0.0.1:${s.ports.http}`;
  };
  return { name: 'distributed', baseURL, origin, edges, simUrl, adminToken, apiKey, processes, originOf, stop, restart };
}
