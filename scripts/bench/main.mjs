#!/usr/bin/env node
/**
 * `npm run bench` (builds first): what each gateway adds on top of its upstream, in one run. Five
 * targets in front of one upstream simulator running as its own process (apps/upstream-sim):
 *   direct       the simulator itself (the floor)
 *   proxy        one bare Node hop forwarding each request's bytes (floor-proxy.mjs): the floor of a gateway
 *   standalone   apps/standalone, pointed at that simulator (UNIGATE_SIM_URL)
 *   distributed  edge + chat + billing + catalog on Postgres, Redis and a Kafka test broker
 *   portkey      Portkey AI Gateway 1.15.2 from npm, forwarding OpenAI-format calls to the simulator
 * measured one after the other (each stopped before the next starts); then standalone and Portkey
 * again, both running, loaded in turn for the throughput ratio (head-to-head.mjs); then reported as
 * tables and JSON (report.mjs). It measures; it never asserts a timing. Options: config.mjs;
 * docs/benchmark.md.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readConfig, reportFailure } from './config.mjs';
import { environment, loadavgNow, withHostCpu } from './environment.mjs';
import { log, stopAll, stopOnSignals } from './lifecycle.mjs';
import { headToHead } from './head-to-head.mjs';
import { measureTarget, warmUp } from './measure.mjs';
import { markdown, summarizeRun, updateDocs, writeResults } from './report.mjs';
import { startGateway, startSimulator } from './targets.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

async function measureOne(name, sim, config) {
  log(`${name}: starting`);
  const target = name === 'direct' ? sim : await startGateway(name, sim.origin, config);
  try {
    const measured = await withHostCpu(() => measureTarget(target, name === 'direct' ? undefined : sim, sim.origin, config));
    return { processes: target.processes, ...measured };
  } finally {
    // Stopped before the next target starts: on 2 cores an idle gateway still takes its share.
    await target.stop();
  }
}

/** Standalone and Portkey started afresh, each warmed up, then loaded in turn (head-to-head.mjs). */
async function measureHeadToHead(sim, config) {
  log(`standalone against portkey: ${config.headToHead.rounds} rounds of ${config.headToHead.sliceSeconds} s each`);
  const ours = await startGateway('standalone', sim.origin, config);
  try {
    const peer = await startGateway('portkey', sim.origin, config);
    try {
      // The same warm-up as each target's own measurement, then the uncounted rounds.
      for (const target of [ours, peer]) await warmUp(target, config);
      return await headToHead(ours, peer, config);
    } finally {
      await peer.stop();
    }
  } finally {
    await ours.stop();
  }
}

async function main() {
  const config = readConfig();
  stopOnSignals();
  const started = new Date();
  const env = environment(ROOT);
  log(`targets ${config.targets.join(', ')}${config.quick ? ' (BENCH_QUICK)' : ''}; model ${config.model}; commit ${env.commit}`);
  const sim = await startSimulator();
  const targets = {};
  for (const name of config.targets) {
    try {
      targets[name] = await measureOne(name, sim, config);
    } catch (err) {
      log(`${name}: not measured: ${err.message}`);
      targets[name] = { error: err.message.split('\n')[0] };
      process.exitCode = 1;
    }
  }
  let versus;
  if (['standalone', 'portkey'].every((t) => config.targets.includes(t) && !targets[t].error) && config.headToHead.rounds > 0) {
    try {
      versus = await withHostCpu(() => measureHeadToHead(sim, config));
    } catch (err) {
      log(`head to head: not measured: ${err.message}`);
      versus = { error: err.message.split('\n')[0] };
      process.exitCode = 1;
    }
  }
  const run = {
    startedAt: started.toISOString(),
    durationSeconds: Math.round((Date.now() - started.getTime()) / 1000),
    environment: env,
    loadavgAtEnd: loadavgNow(),
    config,
    targets,
    ...(versus && { headToHead: versus }),
    summary: summarizeRun(targets, versus),
  };
  const resultsPath = writeResults(ROOT, run, config.resultsDir);
  const text = markdown(run, resultsPath);
  console.log(`\n${text}\n`);
  if (config.writeDocs) {
    await updateDocs(ROOT, text);
    log('docs/benchmark.md updated');
  }
  log(`results: ${resultsPath}`);
}

main()
  .catch((err) => {
    reportFailure(err);
    process.exitCode = 1;
  })
  .finally(stopAll);
