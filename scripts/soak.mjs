#!/usr/bin/env node
/**
 * `npm run soak` (builds first): mixed load on standalone for SOAK_MINUTES (default 10) — half the
 * connections streaming, half not, on SOAK_MODELS in turn — against the upstream simulator as its own
 * process. Every minute it reports throughput, latency, the gateway's resident memory and its event-
 * loop delay (prom-client's nodejs_eventloop_lag_p99_seconds), so a leak or a slowdown over time shows
 * as a trend. It reports; it asserts nothing (timings are not tests). Bounded: SOAK_MINUTES × 60 s.
 *
 *   SOAK_MINUTES=10   SOAK_CONNECTIONS=16   SOAK_MODELS=omega-k3,sigma-sonnet-4-6,gamma-2.5-flash
 */
import { readConfig } from './bench/config.mjs';
import { log, stopAll, stopOnSignals } from './bench/lifecycle.mjs';
import { loadRun } from './bench/load.mjs';
import { rssMiB } from './bench/rss.mjs';
import { startGateway, startSimulator, testing } from './bench/targets.mjs';

const minutes = Number(process.env.SOAK_MINUTES ?? 10);
const connections = Number(process.env.SOAK_CONNECTIONS ?? 16);
const models = (process.env.SOAK_MODELS ?? 'omega-k3,sigma-sonnet-4-6,gamma-2.5-flash').split(',');

/** A gauge's value (its only series) in the gateway's metrics, or undefined when it has none. */
async function metric(target, name) {
  const [series] = testing.metricSeries(await testing.scrapeMetrics(target.origin, target.adminToken), name);
  return series?.value;
}

async function main() {
  stopOnSignals();
  const base = readConfig([]);
  const sim = await startSimulator();
  const target = await startGateway('standalone', sim.origin, base);
  // prom-client starts its event-loop delay histogram afresh at each scrape: scrape once now, so
  // that minute 1 reports its own load and not the gateway's start.
  await metric(target, 'nodejs_eventloop_lag_p99_seconds');
  const rows = [];
  log(`soak: standalone, ${minutes} min, ${connections} connections (half streaming), models ${models.join(', ')}`);
  for (let minute = 1; minute <= minutes; minute++) {
    const model = models[(minute - 1) % models.length];
    const config = { ...base, model, connections: Math.max(1, connections / 2) };
    const [plain, streamed] = await Promise.all([
      loadRun(target, config, { stream: false, seconds: 60 }),
      loadRun(target, config, { stream: true, seconds: 60 }),
    ]);
    const lag = await metric(target, 'nodejs_eventloop_lag_p99_seconds');
    const row = {
      minute,
      model,
      rps: Math.round(plain.rps + streamed.rps),
      p50_ms: Number((plain.latency.p50 / 1000).toFixed(2)),
      p99_ms: Number((plain.latency.p99 / 1000).toFixed(2)),
      stream_p99_ms: Number((streamed.latency.p99 / 1000).toFixed(2)),
      errors: plain.errors + streamed.errors + plain.non2xx + streamed.non2xx,
      rss_mib: Math.round(rssMiB(target.processes[0].pid) ?? 0),
      eventloop_p99_ms: lag === undefined ? null : Number((lag * 1000).toFixed(2)),
    };
    rows.push(row);
    log(JSON.stringify(row));
  }
  const first = rows[0];
  const last = rows[rows.length - 1];
  process.stdout.write(
    [
      '| minute | model | req/s | p50 ms | p99 ms | stream p99 ms | errors | RSS MiB | event loop p99 ms |',
      '|---|---|---|---|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.minute} | ${r.model} | ${r.rps} | ${r.p50_ms} | ${r.p99_ms} | ${r.stream_p99_ms} | ${r.errors} | ${r.rss_mib} | ${r.eventloop_p99_ms} |`,
      ),
      '',
      `RSS ${first.rss_mib} → ${last.rss_mib} MiB; req/s ${first.rps} → ${last.rps}; event loop p99 ${first.eventloop_p99_ms} → ${last.eventloop_p99_ms} ms`,
      '',
    ].join('\n'),
  );
}

main()
  .catch((err) => {
    log(`soak failed: ${err.stack ?? err}`);
    process.exitCode = 1;
  })
  .finally(() => stopAll());
