/**
 * docker-compose.yml, deploy/Dockerfile and the container health check. No Docker engine exists on
 * these machines, so compose is checked by Debian's docker-compose (v1) `config`, which parses,
 * validates and resolves the file offline; the resolved model is then held to the env contract.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { TOPICS } from '@unigate/contracts';
import { freePort, SERVICE_MALLOC_MMAP_THRESHOLD, SERVICE_NODE_OPTIONS } from '@unigate/testing';
import { parse } from 'yaml';
import { ROOT, SERVICES, WORKLOADS, run, type Manifest } from './support';

const TOKEN_ENV = {
  UNIGATE_ADMIN_TOKEN: 'compose-test-admin-token-0123456789',
  UNIGATE_LINK_SECRET: 'compose-test-link-secret-0123456789',
};

describe('docker-compose.yml', () => {
  let compose: Manifest;
  beforeAll(async () => {
    const resolved = await run('docker-compose', ['config'], TOKEN_ENV);
    if (resolved.code !== 0) throw new Error(`docker-compose config failed (${resolved.code}):\n${resolved.stderr}`);
    compose = parse(resolved.stdout);
  });
  const svc = (name: string): Manifest => compose.services[name];
  const env = (name: string): Record<string, string | null> => svc(name).environment ?? {};

  it('is valid for docker-compose (config -q)', async () => {
    const result = await run('docker-compose', ['config', '-q'], TOKEN_ENV);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('refuses to start the edge without an admin token', async () => {
    const result = await run('docker-compose', ['config', '-q'], { ...TOKEN_ENV, UNIGATE_ADMIN_TOKEN: '' });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('UNIGATE_ADMIN_TOKEN');
  });

  it('runs infrastructure and every workload', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['postgres', 'redis', 'kafka', 'kafka-init', 'minio', ...WORKLOADS].sort());
    expect(svc('kafka').image).toMatch(/^apache\/kafka:/);
    expect(env('kafka').KAFKA_PROCESS_ROLES).toBe('broker,controller'); // KRaft, no ZooKeeper
  });

  it.each(WORKLOADS)('builds %s from deploy/Dockerfile and picks the app with APP', (name) => {
    expect(svc(name).build).toEqual({ context: ROOT, dockerfile: 'deploy/Dockerfile' });
    expect(env(name).APP).toBe(name);
    expect(existsSync(join(ROOT, 'apps', name, 'package.json'))).toBe(true);
  });

  it.each(SERVICES)('gives %s the service env contract and waits for its infrastructure', (name) => {
    const e = env(name);
    expect(e.GRPC_PORT).toBe('50051');
    expect(Number(e.PORT)).toBeGreaterThan(0);
    const pg = env('postgres');
    expect(e.DATABASE_URL).toBe(`postgres://${pg.POSTGRES_USER}:${pg.POSTGRES_PASSWORD}@postgres:5432/${pg.POSTGRES_DB}`);
    expect(e.REDIS_URL).toBe('redis://redis:6379');
    expect(env('kafka').KAFKA_ADVERTISED_LISTENERS).toContain(`PLAINTEXT://${e.KAFKA_BROKERS}`);
    expect(svc(name).depends_on).toEqual(
      expect.objectContaining({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
        'kafka-init': { condition: 'service_completed_successfully' },
        minio: { condition: 'service_healthy' },
      }),
    );
  });

  it('points the edge at each service by name and publishes it on 8080', () => {
    const e = env('edge');
    expect(e.PORT).toBe('8080');
    expect(e.UNIGATE_ADMIN_TOKEN).toBe(TOKEN_ENV.UNIGATE_ADMIN_TOKEN);
    expect(e.KAFKA_BROKERS).toBe(env('chat').KAFKA_BROKERS);
    expect(e.REDIS_URL).toBe(env('chat').REDIS_URL);
    for (const [service, key] of [
      ['chat', 'CHAT_GRPC_URL'],
      ['media', 'MEDIA_GRPC_URL'],
      ['billing', 'BILLING_GRPC_URL'],
      ['catalog', 'CATALOG_GRPC_URL'],
    ]) {
      expect(e[key]).toBe(`${service}:${env(service).GRPC_PORT}`);
    }
    for (const service of SERVICES) expect(svc('edge').depends_on[service]).toEqual({ condition: 'service_healthy' });
    expect(svc('edge').ports).toContainEqual(expect.objectContaining({ target: 8080, published: expect.anything() }));
  });

  it('gives media and the edge the same result bucket and link secret', () => {
    for (const key of ['UNIGATE_S3_ENDPOINT', 'UNIGATE_S3_BUCKET', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'UNIGATE_LINK_SECRET'])
      expect(env('edge')[key]).toBe(env('media')[key]);
    expect(env('media').UNIGATE_LINK_SECRET).toBe(TOKEN_ENV.UNIGATE_LINK_SECRET);
    expect(env('media').AWS_SECRET_ACCESS_KEY).toBe(env('minio').MINIO_ROOT_PASSWORD);
  });

  it("gives the edge and every service the harness's and the chart's NODE_OPTIONS and malloc threshold, and the simulator neither", () => {
    for (const name of ['edge', ...SERVICES]) {
      expect(env(name).NODE_OPTIONS).toBe(SERVICE_NODE_OPTIONS);
      expect(env(name).MALLOC_MMAP_THRESHOLD_).toBe(SERVICE_MALLOC_MMAP_THRESHOLD);
    }
    expect(env('upstream-sim').NODE_OPTIONS).toBeUndefined();
    expect(env('upstream-sim').MALLOC_MMAP_THRESHOLD_).toBeUndefined();
  });

  it('routes the catalog to the simulator root by service name', () => {
    expect(env('catalog').UNIGATE_SIM_URL).toBe(`http://upstream-sim:${env('upstream-sim').UNIGATE_SIM_PORT}`);
    expect(svc('catalog').depends_on['upstream-sim']).toEqual({ condition: 'service_healthy' });
  });

  it.each(WORKLOADS)('health-checks %s with deploy/healthcheck.js', (name) => {
    const test: string[] = svc(name).healthcheck.test;
    expect(test.slice(0, 3)).toEqual(['CMD', 'node', 'deploy/healthcheck.js']);
    expect(test[3]).toBe(name === 'upstream-sim' ? '/v1/models' : '/health/ready');
  });

  it("keeps Kafka's log directories on its volume", () => {
    // apache/kafka writes to /tmp/kraft-combined-logs unless KAFKA_LOG_DIRS says otherwise.
    const dirs = String(env('kafka').KAFKA_LOG_DIRS ?? '').split(',');
    const targets = (svc('kafka').volumes ?? []).map((v: Manifest | string) => (typeof v === 'string' ? v.split(':')[1] : v.target));
    expect(dirs.length).toBeGreaterThan(0);
    for (const dir of dirs) expect(targets.some((t: string) => dir === t || dir.startsWith(`${t}/`))).toBe(true);
  });

  it.each(WORKLOADS)('gives %s time to drain before Docker kills it', (name) => {
    // The drain deadline (UNIGATE_SHUTDOWN_TIMEOUT_MS, 25 s) plus the 5 s the process allows itself after it.
    const grace = /^(\d+)s$/.exec(String(svc(name).stop_grace_period));
    expect(Number(grace?.[1])).toBeGreaterThanOrEqual(30);
  });

  it('creates every topic of the contracts before the services start', () => {
    const init = svc('kafka-init');
    expect(init.depends_on.kafka).toEqual({ condition: 'service_healthy' });
    const script = [...(init.entrypoint ?? []), ...(init.command ?? [])].join('\n');
    const listed = /for topic in ([^;]+);/.exec(script)?.[1].trim().split(/\s+/);
    expect(listed?.sort()).toEqual(Object.values(TOPICS).sort());
    expect(script).toContain('--create --if-not-exists');
  });
});

describe('deploy/Dockerfile', () => {
  const dockerfile = readFileSync(join(ROOT, 'deploy', 'Dockerfile'), 'utf8');
  const lines = dockerfile.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'));
  const stages = dockerfile.split(/^FROM /m).slice(1);

  it('copies every workspace manifest before npm ci (npm ci fails on a missing workspace)', () => {
    const workspaces = ['packages', 'apps'].flatMap((dir) =>
      readdirSync(join(ROOT, dir))
        .filter((d) => existsSync(join(ROOT, dir, d, 'package.json')))
        .map((d) => `${dir}/${d}`),
    );
    const npmCi = lines.findIndex((l) => /^RUN npm ci$/.test(l));
    expect(npmCi).toBeGreaterThan(0);
    const copied = lines.slice(0, npmCi).join('\n');
    expect(copied).toMatch(/COPY package\.json package-lock\.json/);
    for (const ws of workspaces) expect(copied).toContain(`COPY ${ws}/package.json ${ws}/`);
  });

  it('builds with turbo, ships production dependencies only and runs as a non-root user', () => {
    expect(dockerfile).toMatch(/npx turbo run build/);
    expect(dockerfile).toMatch(/npm prune --omit=dev/);
    const runtime = stages[stages.length - 1];
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/NODE_ENV=production/);
  });

  it('runs the app named by APP, standalone by default', () => {
    expect(dockerfile).toMatch(/^ARG APP=standalone$/m);
    expect(existsSync(join(ROOT, 'apps', 'standalone', 'package.json'))).toBe(true);
    expect(dockerfile).toMatch(/^CMD \["sh", "-c", "exec node apps\/\$\{APP\}\/dist\/main\.js"\]$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*deploy\/healthcheck\.js/m);
  });

  it("makes standalone's embedded-store template in the build, after the caches are cleared, and ships it", () => {
    const build = stages.find((stage) => stage.startsWith('deps AS build'));
    const steps = build?.replace(/\\\n/g, ' ') ?? '';
    const cleared = steps.indexOf('rm -rf .turbo apps/*/.turbo packages/*/.turbo node_modules/.cache');
    const prepared = steps.indexOf('node apps/standalone/dist/prepare-template.js');
    expect(cleared).toBeGreaterThan(0);
    expect(prepared).toBeGreaterThan(cleared);
    expect(existsSync(join(ROOT, 'apps', 'standalone', 'src', 'prepare-template.ts'))).toBe(true);
    // The runtime takes the build's whole /app, node_modules/.cache with it.
    expect(stages[stages.length - 1]).toMatch(/^COPY --from=build --chown=node:node \/app \/app$/m);
  });

  it('has a .dockerignore that keeps local state and secrets out of the build context', () => {
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim());
    for (const pattern of ['.git', '**/node_modules', '**/dist', '.env', '.unigate', '**/*.heapsnapshot'])
      expect(ignored).toContain(pattern);
    // Whatever .gitignore keeps out of the repository as local state stays out of the image too.
    for (const local of ['test-artifacts', 'bench/results']) expect(ignored).toContain(local);
    // The health check script must stay in the context.
    expect(ignored).not.toContain('deploy');
  });
});

describe('deploy/healthcheck.js', () => {
  let server: Server;
  let port: number;
  let status = 200;
  beforeAll(async () => {
    port = await freePort();
    server = createServer((req, res) => {
      res.statusCode = req.url === '/health/ready' || req.url === '/v1/models' ? status : 404;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const check = (env: Record<string, string>, ...args: string[]) =>
    run(process.execPath, [join(ROOT, 'deploy', 'healthcheck.js'), ...args], { APP: '', PORT: '', UNIGATE_SIM_PORT: '', ...env });

  it('passes on 200 from /health/ready on PORT', async () => {
    status = 200;
    expect((await check({ PORT: String(port) })).code).toBe(0);
  });

  it('fails while the app is not ready', async () => {
    status = 503;
    expect((await check({ PORT: String(port) })).code).toBe(1);
    status = 200;
  });

  it('fails when nothing listens', async () => {
    const closed = await freePort();
    expect((await check({ PORT: String(closed) })).code).toBe(1);
  });

  it('checks the simulator on its own port although the image sets PORT for every app', async () => {
    const imagePort = await freePort(); // the image's PORT=8080: nothing listens there in the simulator's container
    status = 200;
    expect((await check({ APP: 'upstream-sim', PORT: String(imagePort), UNIGATE_SIM_PORT: String(port) })).code).toBe(0);
    expect((await check({ APP: 'upstream-sim', PORT: String(port) })).code).toBe(0);
    expect((await check({ APP: 'edge', PORT: String(imagePort), UNIGATE_SIM_PORT: String(port) })).code).toBe(1);
  });

  it('checks the simulator on UNIGATE_SIM_PORT and the given path', async () => {
    status = 200;
    expect((await check({ UNIGATE_SIM_PORT: String(port) }, '/v1/models')).code).toBe(0);
    expect((await check({ UNIGATE_SIM_PORT: String(port) }, '/nope')).code).toBe(1);
  });
});
