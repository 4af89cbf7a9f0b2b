/**
 * Every measurement of one target, in this order:
 *   1. its calls reach the shared simulator on the same path as a direct call (requests.mjs);
 *   2. warm-up: a short load run per case, non-streaming last;
 *   3. gateways only (not the floor proxy): the no-decay run (non-streaming, 64 connections). It comes first, on the freshest
 *      state, because that is where a slowdown shows (a table or plan that degrades as requests
 *      accumulate); what follows then measures the state a busy gateway lives in. Each window also
 *      records the CPU the target's processes and the simulator spent per answer (cpu.mjs);
 *   4. sequential latency, non-streaming, streaming, non-streaming with a coding agent's 60 KB
 *      prompt, then non-streaming after 50 ms of idle time each, paired with direct calls for gateways;
 *   5. max throughput per case (each after its own warm-up).
 * RSS of the target's processes is watched from warm-up to the end of the last run.
 */
import { log } from './lifecycle.mjs';
import { loadRun } from './load.mjs';
import { checkRoute } from './requests.mjs';
import { watchRss } from './rss.mjs';
import { sequentialRun } from './sequential.mjs';

const CASES = [
  ['json', false],
  ['stream', true],
];

/**
 * Sequential cases. `large` and `idle` are sequential only: throughput stays the short request's (a 60 KB
 * body at 64 connections measures loopback copies). `idle` is the short non-streaming request after the
 * pause a stream's request follows in the streaming case (a stream lasts ~50 ms, and the other side of
 * its pair runs meanwhile): it shows what waking up after that much idle time costs each process on the
 * path, apart from what streaming itself costs.
 */
export function sequentialCases(config) {
  const s = config.sequential;
  return [
    ['json', { count: s.json }],
    ['stream', { stream: true, count: s.stream }],
    ['large', { large: true, count: s.large }],
    ['idle', { pauseMs: s.idlePauseMs, count: s.idle }],
  ];
}

/**
 * A target's first load after it started: a short run per case, streaming first, so that the
 * non-streaming load runs straight on into what follows (the no-decay run, or the head to head's rounds).
 */
export async function warmUp(target, config) {
  for (const stream of [true, false]) await loadRun(target, config, { stream, seconds: config.firstWarmupSeconds });
}

/** `direct` is the simulator target when `target` is a gateway (for the paired sequential runs). */
export async function measureTarget(target, direct, simUrl, config) {
  const upstreamPath = await checkRoute(target, simUrl, config);
  const rss = watchRss(target.processes, config.rssIntervalMs);
  try {
    log(`${target.name}: warm-up`);
    await warmUp(target, config);

    let decay;
    // The floor proxy keeps no state that could degrade: no decay run.
    if (direct && !target.floor) {
      log(`${target.name}: ${config.decay.seconds} s no-decay run`);
      // With the simulator's CPU beside the target's: cpu.mjs says why.
      const cpuOf = [...(target.processes ?? []), ...(direct.processes ?? [])];
      const run = await loadRun(target, config, { stream: false, seconds: config.decay.seconds, windows: config.decay.windows, cpuOf });
      decay = { ...run, simulatorProcesses: (direct.processes ?? []).map((p) => p.name) };
    }

    const sequential = {};
    for (const [name, kase] of sequentialCases(config)) {
      log(`${target.name}: sequential ${name}`);
      sequential[name] = await sequentialRun(target, direct, config, kase);
    }

    const throughput = {};
    for (const [name, stream] of CASES) {
      log(`${target.name}: throughput ${name}`);
      await loadRun(target, config, { stream, seconds: config.warmupSeconds });
      throughput[name] = await loadRun(target, config, { stream, seconds: config.durationSeconds });
    }
    return { upstreamPath, sequential, throughput, ...(decay && { decay }), rss: rss.stop() };
  } finally {
    rss.stop();
  }
}
