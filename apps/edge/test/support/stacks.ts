/**
 * The two deployments the e2e suite runs against, both as real processes built from dist/:
 * standalone (one process, embedded storage) and distributed (edge + chat + billing + catalog on real
 * Postgres, the Kafka test broker and gRPC), each in front of the upstream simulator.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createTestDatabase, freePort, kafkaBrokers, redisUrl, startNodeProcess, uniqueName, type NodeProcess } from '@unigate/testing';

export const ROOT = resolve(__dirname, '../../../..');
const app = (name: string) => join(ROOT, 'apps', name, 'dist', 'main.js');

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
  processes: NodeProcess[];
  stop(): Promise<void>;
}

export const newApiKey = () => `sk-${randomBytes(30).toString('base64url').replace(/[-_]/g, 'x')}`;

export async function startStandalone(extraEnv: Record<string, string> = {}): Promise<Stack> {
  const [port, simPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), 'unigate-standalone-'));
  const adminToken = randomBytes(24).toString('hex');
  const apiKey = newApiKey();
  const proc = await startNodeProcess({
    name: 'standalone',
    script: app('standalone'),
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      UNIGATE_SIM_PORT: String(simPort),
      UNIGATE_DATA_DIR: dataDir,
      UNIGATE_ADMIN_TOKEN: adminToken,
      UNIGATE_BOOTSTRAP_KEY: apiKey,
      UNIGATE_BOOTSTRAP_CREDIT_USD: '1000',
      LOG_LEVEL: 'warn',
      ...extraEnv,
    },
    readyUrl: `http://127.0.0.1:${port}/health/ready`,
    timeoutMs: 60_000,
  });
  const origin = `http://127.0.0.1:${port}`;
  return {
    name: 'standalone',
    baseURL: `${origin}/v1`,
    origin,
    edges: [{ baseURL: `${origin}/v1`, origin }],
    simUrl: `http://127.0.0.1:${simPort}`,
    adminToken,
    apiKey,
    processes: [proc],
    async stop() {
      await proc.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface DistributedOptions {
  /** Edge replicas sharing the services, Redis and Kafka (default 1). */
  edges?: number;
}

export async function startDistributed(extraEnv: Record<string, string> = {}, opts: DistributedOptions = {}): Promise<Stack> {
  const db = await createTestDatabase('e2e');
  const prefix = `${uniqueName('e2e')}.`;
  const adminToken = randomBytes(24).toString('hex');
  const apiKey = newApiKey();
  const edgePorts: number[] = [];
  for (let i = 0; i < (opts.edges ?? 1); i++) edgePorts.push(await freePort());
  const ports = { sim: await freePort() };
  const svc = async () => ({ http: await freePort(), grpc: await freePort() });
  const [catalog, billing, chat] = [await svc(), await svc(), await svc()];
  const common = { HOST: '127.0.0.1', LOG_LEVEL: 'warn', KAFKA_BROKERS: kafkaBrokers().join(','), KAFKA_TOPIC_PREFIX: prefix, ...extraEnv };
  const processes: NodeProcess[] = [];
  /** `name` is the app; `label` tells replicas of one app apart in logs and errors. */
  const start = async (name: string, ports: { http: number; grpc?: number }, env: Record<string, string>, label = name) => {
    const p = await startNodeProcess({
      name: label,
      script: app(name),
      env: { ...common, PORT: String(ports.http), ...(ports.grpc ? { GRPC_PORT: String(ports.grpc) } : {}), ...env },
      readyUrl: `http://127.0.0.1:${ports.http}/health/ready`,
      timeoutMs: 60_000,
    });
    processes.push(p);
    return p;
  };
  const stop = async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await db.drop();
  };
  try {
    await Promise.all([
      startNodeProcess({
        name: 'upstream-sim',
        script: app('upstream-sim'),
        env: { UNIGATE_SIM_PORT: String(ports.sim), HOST: '127.0.0.1' },
        readyUrl: `http://127.0.0.1:${ports.sim}/v1/models`,
      }).then((p) => processes.push(p)),
      start('catalog', catalog, { UNIGATE_SIM_URL: `http://127.0.0.1:${ports.sim}` }),
      start('billing', billing, { DATABASE_URL: db.url, UNIGATE_BOOTSTRAP_KEY: apiKey, UNIGATE_BOOTSTRAP_CREDIT_USD: '1000' }),
      start('chat', chat, {}),
    ]);
    await Promise.all(
      edgePorts.map((port, i) =>
        start(
          'edge',
          { http: port },
          {
            CHAT_GRPC_URL: `127.0.0.1:${chat.grpc}`,
            BILLING_GRPC_URL: `127.0.0.1:${billing.grpc}`,
            CATALOG_GRPC_URL: `127.0.0.1:${catalog.grpc}`,
            REDIS_URL: redisUrl(),
            UNIGATE_ADMIN_TOKEN: adminToken,
          },
          i === 0 ? 'edge' : `edge-${i + 1}`,
        ),
      ),
    );
  } catch (err) {
    await stop();
    throw err;
  }
  const edges = edgePorts.map((port) => ({ origin: `http://127.0.0.1:${port}`, baseURL: `http://127.0.0.1:${port}/v1` }));
  const { origin, baseURL } = edges[0];
  return { name: 'distributed', baseURL, origin, edges, simUrl: `http://127.0.0.1:${ports.sim}`, adminToken, apiKey, processes, stop };
}
