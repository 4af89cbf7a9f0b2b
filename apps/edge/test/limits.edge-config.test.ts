/**
 * The distributed edge's limit store at start: REDIS_URL is required and checked before anything
 * else happens, and an edge whose Redis cannot be reached runs but does not report ready.
 */
import { join } from 'node:path';
import { freePort, kafkaBrokers, startNodeProcess, uniqueName, type NodeProcess } from '@unigate/testing';
import { ROOT } from './support/stacks';

const EDGE = join(ROOT, 'apps', 'edge', 'dist', 'main.js');

async function edgeEnv(redisUrl: string | undefined) {
  const port = await freePort();
  return {
    port,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      KAFKA_BROKERS: kafkaBrokers().join(','),
      KAFKA_TOPIC_PREFIX: `${uniqueName('edgecfg')}.`,
      // Nothing answers here; the edge's gRPC clients connect lazily, so it still starts.
      CHAT_GRPC_URL: `127.0.0.1:${await freePort()}`,
      MEDIA_GRPC_URL: `127.0.0.1:${await freePort()}`,
      BILLING_GRPC_URL: `127.0.0.1:${await freePort()}`,
      CATALOG_GRPC_URL: `127.0.0.1:${await freePort()}`,
      UNIGATE_ADMIN_TOKEN: 'x'.repeat(32),
      REDIS_URL: redisUrl,
    },
  };
}

async function waitExit(p: NodeProcess, timeoutMs = 20_000): Promise<string | undefined> {
  const deadline = Date.now() + timeoutMs;
  while (!p.exited() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return p.exited();
}

describe('edge limit store configuration', () => {
  let proc: NodeProcess | undefined;
  afterEach(async () => {
    await proc?.stop();
    proc = undefined;
  });

  it.each([
    ['missing', undefined, /REDIS_URL must be set/],
    ['not a redis URL', 'http://127.0.0.1:6379', /REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/],
  ])('refuses to start when REDIS_URL is %s', async (_label, url, message) => {
    const { env } = await edgeEnv(url);
    proc = await startNodeProcess({ name: 'edge', script: EDGE, env });
    expect(await waitExit(proc)).toBe('exit code 1');
    expect(proc.logs()).toMatch(message);
  });

  it('runs but is not ready while its Redis cannot be reached', async () => {
    const { port, env } = await edgeEnv(`redis://127.0.0.1:${await freePort()}`);
    proc = await startNodeProcess({ name: 'edge', script: EDGE, env, readyUrl: `http://127.0.0.1:${port}/health/live` });
    const res = await fetch(`http://127.0.0.1:${port}/health/ready`);
    expect(res.status).toBe(503);
    const body = (await res.json()) as { checks: Record<string, string> };
    expect(body.checks.limits).toMatch(/redis/);
  });
});
