/**
 * The targets, all in front of one upstream simulator running as its own process. A target is
 * { name, origin, headers, processes: [{ name, pid }], stop }: where to send requests, what to send
 * with them, which processes to watch, and how to stop it. Gateways start on fresh state (a new data
 * directory or database) with one generously funded account.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onStop } from './lifecycle.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(join(ROOT, 'package.json'));
/** A checkout's @unigate/testing: its deployments as processes (its own apps' dist), freePort, the Kafka test broker. */
const testingAt = (root) => createRequire(join(root, 'package.json'))(join(root, 'packages', 'testing', 'dist', 'index.js'));
// Built by `npm run bench`'s turbo step (and `npm run soak`'s, which reads metrics with it).
export const testing = testingAt(ROOT);

const READY_TIMEOUT_MS = 120_000;
const processesOf = (stack) => stack.processes.map((p) => ({ name: p.name, pid: p.pid }));
const bearer = (apiKey) => ({ authorization: `Bearer ${apiKey}` });

/** The simulator: every gateway's upstream, and the `direct` target (the floor). */
export async function startSimulator() {
  const sim = await testing.startUpstreamSim();
  onStop(() => sim.process.stop());
  return {
    name: 'direct',
    origin: sim.url,
    headers: {},
    processes: [{ name: 'upstream-sim', pid: sim.process.pid }],
    stop: async () => {},
  };
}

async function startStandalone(simUrl, config, at = testing) {
  const stack = await at.startStandalone({}, { simUrl, creditUsd: config.creditUsd, readyTimeoutMs: READY_TIMEOUT_MS });
  const stop = onStop(() => stack.stop());
  return {
    name: 'standalone',
    origin: stack.origin,
    headers: bearer(stack.apiKey),
    adminToken: stack.adminToken,
    processes: processesOf(stack),
    stop,
  };
}

/** Edge, chat, billing and catalog as startDistributed lays them out, on Postgres, Redis and a Kafka test broker of its own. */
async function startDistributed(simUrl, config, at = testing) {
  await Promise.all([at.ensurePostgres(), at.ensureRedis()]);
  const broker = await at.startKafkaTestBroker();
  const stopBroker = onStop(() => broker.stop());
  const stack = await at.startDistributed(
    {},
    // kafkaFetchMaxWaitMs null: the services' own fetch wait, as deployed (the tests' 100 ms polls the
    // mock broker ten times as often and costs every consumer CPU). The mock holds an empty fetch for
    // the whole wait, so a settlement may come up to 1 s later here; billing still settles as the load
    // runs, on the same cores (docs/benchmark-journal.md, f3d1637).
    {
      simUrl,
      creditUsd: config.creditUsd,
      label: 'bench',
      kafkaBrokers: broker.brokers,
      kafkaFetchMaxWaitMs: null,
      readyTimeoutMs: READY_TIMEOUT_MS,
    },
  );
  const stopStack = onStop(() => stack.stop());
  const stop = async () => {
    await stopStack();
    await stopBroker();
  };
  return { name: 'distributed', origin: stack.origin, headers: bearer(stack.apiKey), processes: processesOf(stack), stop };
}

/**
 * Portkey's open-source gateway as npm ships it, told per request to forward OpenAI-format calls to the
 * simulator: `x-portkey-provider: openai` with `x-portkey-custom-host` (127.0.0.1 is a trusted custom
 * host by default). The key is the provider's; the simulator accepts any.
 */
async function startPortkey(simUrl) {
  const port = await testing.freePort();
  const script = join(dirname(require.resolve('@portkey-ai/gateway/package.json')), 'build', 'start-server.js');
  const proc = await testing.startNodeProcess({
    name: 'portkey',
    script,
    args: [`--port=${port}`, '--headless'],
    readyUrl: `http://127.0.0.1:${port}/`,
    timeoutMs: READY_TIMEOUT_MS,
  });
  const stop = onStop(() => proc.stop());
  const headers = {
    authorization: 'Bearer sk-portkey-bench',
    'x-portkey-provider': 'openai',
    'x-portkey-custom-host': `${simUrl}/v1`,
  };
  return { name: 'portkey', origin: `http://127.0.0.1:${port}`, headers, processes: [{ name: 'portkey', pid: proc.pid }], stop };
}

/** The floor: one bare Node hop (floor-proxy.mjs), forwarding each request's bytes to the simulator. */
async function startFloorProxy(simUrl) {
  const port = await testing.freePort();
  const proc = await testing.startNodeProcess({
    name: 'proxy',
    script: join(ROOT, 'scripts', 'bench', 'floor-proxy.mjs'),
    args: [`--port=${port}`, `--upstream=${simUrl}`],
    readyUrl: `http://127.0.0.1:${port}/ready`,
    timeoutMs: READY_TIMEOUT_MS,
  });
  const stop = onStop(() => proc.stop());
  return {
    name: 'proxy',
    floor: true,
    origin: `http://127.0.0.1:${port}`,
    headers: {},
    processes: [{ name: 'proxy', pid: proc.pid }],
    stop,
  };
}

const starters = { proxy: startFloorProxy, standalone: startStandalone, distributed: startDistributed, portkey: startPortkey };

/** Starts one gateway target in front of the simulator at `simUrl`. */
export function startGateway(name, simUrl, config) {
  return starters[name](simUrl, config);
}

/** Unigate's `deployment` (standalone or distributed) as built in the checkout at `root` (compare.mjs's baseline). */
export function startDeploymentAt(root, deployment, simUrl, config) {
  const start = { standalone: startStandalone, distributed: startDistributed }[deployment];
  return start(simUrl, config, testingAt(root));
}
