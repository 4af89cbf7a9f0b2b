#!/usr/bin/env node
/**
 * `npm run bench` (builds first): what the gateway costs on top of the upstream. Measures requests/s,
 * p50 and p99 latency of POST /v1/chat/completions (non-streaming and streaming, full SSE body read)
 * against three targets on loopback:
 *   direct       the upstream simulator itself (apps/upstream-sim)
 *   standalone   apps/standalone (one process, embedded storage, its own built-in simulator)
 *   distributed  edge + chat + billing + catalog over gRPC, on Postgres, Redis and the Kafka test broker,
 *                routed to the same simulator as `direct`
 * then prints a table, the gateway overhead (p50/p99 minus direct) and the throughput ratio.
 * It measures, it never asserts. Everything it starts it stops.
 *
 *   BENCH_DURATION=10 BENCH_CONNECTIONS=20 BENCH_TARGETS=direct,standalone,distributed npm run bench
 *   node scripts/bench.mjs --json bench.json      (also write the results as JSON)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(ROOT, 'package.json'));
const autocannon = require('autocannon');
// Built by `npm run bench`'s turbo step: freePort, createTestDatabase, startNodeProcess, the Kafka test broker.
const testing = require(join(ROOT, 'packages', 'testing', 'dist', 'index.js'));

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const TARGETS = (process.env.BENCH_TARGETS ?? 'direct,standalone,distributed').split(',').map((t) => t.trim());
const JSON_OUT = process.argv.includes('--json') ? process.argv[process.argv.indexOf('--json') + 1] : undefined;
const MODEL = 'sigma-sonnet-4-6';
const CREDIT_USD = '100000';

const app = (name) => join(ROOT, 'apps', name, 'dist', 'main.js');
const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);
const body = (stream) =>
  JSON.stringify({
    model: MODEL,
    messages: [{ role: 'user', content: 'Say hello in five words.' }],
    max_tokens: 32,
    ...(stream ? { stream: true } : {}),
  });

/** Everything started, stopped in reverse order on the way out (also on Ctrl-C). */
const cleanups = [];
async function cleanup() {
  while (cleanups.length) {
    try {
      await cleanups.pop()();
    } catch (err) {
      log(`cleanup: ${err.message}`);
    }
  }
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    log(`${signal}: stopping everything`);
    void cleanup().then(() => process.exit(130));
  });
}

async function start(name, env, readyPath = '/health/ready', httpPort = env.PORT) {
  const proc = await testing.startNodeProcess({
    name,
    script: app(name),
    env: { HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    readyUrl: `http://127.0.0.1:${httpPort}${readyPath}`,
    timeoutMs: 90_000,
  });
  cleanups.push(() => proc.stop());
  return proc;
}

async function startSimulator() {
  const port = await testing.freePort();
  await start('upstream-sim', { UNIGATE_SIM_PORT: String(port) }, '/v1/models', port);
  return { name: 'direct', origin: `http://127.0.0.1:${port}`, headers: {} };
}

async function startStandalone() {
  const [port, simPort] = [await testing.freePort(), await testing.freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), 'unigate-bench-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const apiKey = newApiKey();
  await start('standalone', {
    PORT: String(port),
    UNIGATE_SIM_PORT: String(simPort),
    UNIGATE_DATA_DIR: dataDir,
    UNIGATE_ADMIN_TOKEN: randomBytes(24).toString('hex'),
    UNIGATE_BOOTSTRAP_KEY: apiKey,
    UNIGATE_BOOTSTRAP_CREDIT_USD: CREDIT_USD,
  });
  return { name: 'standalone', origin: `http://127.0.0.1:${port}`, headers: { authorization: `Bearer ${apiKey}` } };
}

async function startDistributed(simOrigin) {
  await Promise.all([testing.ensurePostgres(), testing.ensureRedis()]);
  const broker = await testing.startKafkaTestBroker();
  cleanups.push(() => broker.stop());
  const db = await testing.createTestDatabase('bench');
  cleanups.push(() => db.drop());
  const apiKey = newApiKey();
  const common = {
    KAFKA_BROKERS: broker.brokers.join(','),
    KAFKA_TOPIC_PREFIX: testing.uniqueName('bench'),
    DATABASE_URL: db.url,
    REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
  };
  const ports = async () => ({ PORT: String(await testing.freePort()), GRPC_PORT: String(await testing.freePort()) });
  const [catalog, billing, chat] = [await ports(), await ports(), await ports()];
  await Promise.all([
    start('catalog', { ...common, ...catalog, UNIGATE_SIM_URL: simOrigin }),
    start('billing', { ...common, ...billing, UNIGATE_BOOTSTRAP_KEY: apiKey, UNIGATE_BOOTSTRAP_CREDIT_USD: CREDIT_USD }),
    start('chat', { ...common, ...chat }),
  ]);
  const edgePort = String(await testing.freePort());
  await start('edge', {
    ...common,
    PORT: edgePort,
    CHAT_GRPC_URL: `127.0.0.1:${chat.GRPC_PORT}`,
    BILLING_GRPC_URL: `127.0.0.1:${billing.GRPC_PORT}`,
    CATALOG_GRPC_URL: `127.0.0.1:${catalog.GRPC_PORT}`,
    UNIGATE_ADMIN_TOKEN: randomBytes(24).toString('hex'),
  });
  return { name: 'distributed', origin: `http://127.0.0.1:${edgePort}`, headers: { authorization: `Bearer ${apiKey}` } };
}

function newApiKey() {
  return `sk-${randomBytes(30).toString('base64url').replace(/[-_]/g, 'x')}`;
}

/** One real request first: a misconfigured target should say why, not produce a table of errors. */
async function sanityCheck(target, stream) {
  const response = await fetch(`${target.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...target.headers },
    body: body(stream),
  });
  const text = await response.text();
  const ok = response.status === 200 && (stream ? text.includes('data: [DONE]') : text.includes('"choices"'));
  if (!ok) throw new Error(`${target.name} ${stream ? 'streaming' : 'non-streaming'}: HTTP ${response.status} ${text.slice(0, 300)}`);
}

/** autocannon records a request's latency when its response is complete: for SSE, the whole stream. */
function load(target, stream, duration) {
  return autocannon({
    url: `${target.origin}/v1/chat/completions`,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...target.headers },
    body: body(stream),
    connections: CONNECTIONS,
    duration,
  });
}

async function measure(target, stream) {
  await sanityCheck(target, stream);
  if (WARMUP > 0) await load(target, stream, WARMUP);
  const r = await load(target, stream, DURATION);
  const statuses = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]));
  return {
    target: target.name,
    mode: stream ? 'stream' : 'json',
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    statuses,
  };
}

function printTable(results) {
  const rows = [['target', 'mode', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'non-2xx', 'errors']];
  for (const r of results) {
    rows.push([
      r.target,
      r.mode,
      r.rps.toFixed(1),
      r.p50.toFixed(1),
      r.p99.toFixed(1),
      String(r.requests),
      String(r.non2xx),
      String(r.errors),
    ]);
  }
  const overhead = [];
  for (const mode of ['json', 'stream']) {
    const direct = results.find((r) => r.target === 'direct' && r.mode === mode);
    if (!direct) continue;
    for (const r of results.filter((x) => x.target !== 'direct' && x.mode === mode)) {
      overhead.push([
        r.target,
        mode,
        `${(r.p50 - direct.p50).toFixed(1)}`,
        `${(r.p99 - direct.p99).toFixed(1)}`,
        direct.rps > 0 ? `${((r.rps / direct.rps) * 100).toFixed(1)}%` : 'n/a',
      ]);
    }
  }
  const print = (table) => {
    const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
    for (const [n, row] of table.entries()) {
      console.log(row.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '));
      if (n === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
    }
  };
  console.log(
    `\nPOST /v1/chat/completions, model ${MODEL}, max_tokens 32, ${CONNECTIONS} connections, ${DURATION} s per case (loopback)\n`,
  );
  print(rows);
  if (overhead.length) {
    console.log('\nGateway overhead against direct (latency added, throughput kept):\n');
    print([['target', 'mode', '+p50 ms', '+p99 ms', 'req/s vs direct'], ...overhead]);
  }
  for (const r of results.filter((x) => x.non2xx > 0 || x.errors > 0)) {
    console.log(
      `\nnote: ${r.target}/${r.mode} had ${r.non2xx} non-2xx and ${r.errors} errors/timeouts; statuses ${JSON.stringify(r.statuses)}`,
    );
  }
}

async function main() {
  log(`targets ${TARGETS.join(', ')}; ${DURATION} s per case after ${WARMUP} s warm-up, ${CONNECTIONS} connections`);
  const direct = await startSimulator();
  const targets = [];
  if (TARGETS.includes('direct')) targets.push(direct);
  if (TARGETS.includes('standalone')) {
    log('starting standalone');
    targets.push(await startStandalone());
  }
  if (TARGETS.includes('distributed')) {
    log('starting distributed: catalog, billing, chat, edge');
    targets.push(await startDistributed(direct.origin));
  }
  const results = [];
  for (const target of targets) {
    for (const stream of [false, true]) {
      log(`measuring ${target.name} ${stream ? 'streaming' : 'non-streaming'}`);
      try {
        results.push(await measure(target, stream));
      } catch (err) {
        log(`skipped: ${err.message}`);
      }
    }
  }
  printTable(results);
  if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify({ connections: CONNECTIONS, duration: DURATION, results }, null, 2));
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(cleanup);
