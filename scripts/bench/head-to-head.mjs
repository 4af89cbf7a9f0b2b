/**
 * Throughput head to head: two gateways running at the same time, loaded in turn for short slices,
 * so the ratio of their rates compares the same minutes. Measured one after the other, minutes apart,
 * the rates of two targets drift with the machine (on shared cores the simulator alone has been
 * measured anywhere from 2,700 to 11,500 req/s within hours), and a ratio of two such rates says more
 * about the drift than about the gateways. Each round runs both, alternating which goes first; each
 * slice's first window is its warm-up (new connections, the other gateway's caches leaving the CPU),
 * and the rest is its rate. The first `warmupRounds` rounds are run and not counted: a gateway started
 * afresh is not at its steady rate after a few seconds of load (standalone's slices still climbed
 * from ~1,550 to ~2,300 req/s over the first 15 s of its load in the first two runs, Portkey's did not),
 * and the per-target throughput runs measure each one after a minute and more of it. The ratio is
 * the median of the counted rounds' ratios, with the sign test's 95 % interval (medianWithInterval):
 * no assumption about how the rounds vary.
 */
import { loadRun } from './load.mjs';
import { medianWithInterval } from './stats.mjs';

/** Requests per second of a slice after its first (warm-up) window. */
export function settledRps(slice) {
  const measured = slice.windows.slice(1);
  return measured.reduce((sum, w) => sum + w.rps, 0) / measured.length;
}

/**
 * Runs `warmupRounds` uncounted rounds, then `rounds` counted ones, of one `sliceSeconds`
 * non-streaming slice per gateway (`windows` windows each, the first dropped). Returns each counted
 * round's rates, which gateway went first and the ratio a / b, and the median ratio with its
 * interval. `run` is loadRun (a parameter so the rounds' bookkeeping can be tested without gateways).
 */
export async function headToHead(a, b, config, run = loadRun) {
  const { rounds, warmupRounds = 0, sliceSeconds, windows } = config.headToHead;
  const results = [];
  for (let i = 0; i < warmupRounds + rounds; i++) {
    const order = i % 2 === 0 ? [a, b] : [b, a];
    const rps = {};
    for (const target of order) {
      rps[target.name] = settledRps(await run(target, config, { stream: false, seconds: sliceSeconds, windows }));
    }
    if (i >= warmupRounds)
      results.push({ first: order[0].name, [a.name]: rps[a.name], [b.name]: rps[b.name], ratio: rps[a.name] / rps[b.name] });
  }
  // Ratios to three decimals.
  const { median, low, high } = medianWithInterval(
    results.map((r) => r.ratio),
    (x) => Math.round(x * 1000) / 1000,
  );
  return { a: a.name, b: b.name, sliceSeconds, warmupRounds, rounds: results, ratio: { median, low, high } };
}
