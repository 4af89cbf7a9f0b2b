/**
 * bench:compare's measurement (compare.mjs): rounds that send one request to each of three sides
 * (direct, the baseline build, this build) in a rotating order, and the table of what they found.
 * Each round's difference (this build minus the baseline) is taken in the same moment, so the
 * machine's drift between minutes cannot pass for a change.
 */
import { chatBody } from './requests.mjs';
import { client } from './sequential.mjs';
import { medianWithInterval, summarize } from './stats.mjs';

/** The six orders of three sides: each goes first, second and last equally often. */
export const ORDERS = [
  [0, 1, 2],
  [2, 0, 1],
  [1, 2, 0],
  [0, 2, 1],
  [1, 0, 2],
  [2, 1, 0],
];

/**
 * `kase.count` rounds (after `config.sequential.warmup` unrecorded ones, and no longer than three
 * times `maxSeconds`) over `sides` = [direct, baseline, current], each a target as targets.mjs makes
 * them. A stream is timed to its first event, anything else to its last byte. Throws at the first
 * answer that is not a 200, naming its side.
 */
export async function pairedRounds(sides, config, kase) {
  const body = Buffer.from(chatBody(config, kase.stream, kase.large));
  const clients = sides.map((side) => client(side, body));
  const samples = sides.map(() => []);
  try {
    // Three requests a round: three times a single target's time limit.
    const deadline = performance.now() + config.sequential.maxSeconds * 1000 * 3;
    for (let i = 0; i < config.sequential.warmup + kase.count; i++) {
      if (i >= config.sequential.warmup && performance.now() > deadline) break;
      const times = [];
      for (const s of ORDERS[i % ORDERS.length]) {
        const r = await clients[s].send();
        if (r.status !== 200) throw new Error(`${sides[s].name}: HTTP ${r.status}`);
        times[s] = kase.stream ? r.firstByteUs : r.totalUs;
      }
      if (i >= config.sequential.warmup) times.forEach((t, s) => samples[s].push(t));
    }
  } finally {
    for (const c of clients) c.close();
  }
  const [direct, base, head] = samples;
  const overhead = (own) => {
    const { p50, p99 } = summarize(own.map((t, i) => t - direct[i]));
    return { p50, p99 };
  };
  return {
    rounds: direct.length,
    direct: summarize(direct),
    baseline: { ...summarize(base), overhead: overhead(base) },
    current: { ...summarize(head), overhead: overhead(head) },
    difference: medianWithInterval(head.map((t, i) => t - base[i])),
  };
}

/** compare.mjs's result as a markdown table (ms). */
export function compareTable(result) {
  const ms = (us) => (us / 1000).toFixed(3);
  const signed = (us) => `${us >= 0 ? '+' : '−'}${ms(Math.abs(us))}`;
  const e = result.environment;
  const lines = [
    `- ${result.deployment}: this build (${result.current.commit}${result.current.dirty ? ', uncommitted changes' : ''}) against ${result.baseline.commit.slice(0, 12)}, both running at once; ${e.cpus} cores (${e.cpuModel}), load average ${e.loadavgAtStart.join(' ')} at the start, ${result.loadavgAtEnd.join(' ')} at the end.`,
    '',
    '| case | rounds | direct p50 | baseline overhead p50 | this build overhead p50 | this − baseline, per round: median | 95 % interval | host steal / busy |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |',
  ];
  for (const [name, c] of Object.entries(result.cases)) {
    const d = c.difference;
    lines.push(
      `| ${name} | ${c.rounds} | ${ms(c.direct.p50)} | ${signed(c.baseline.overhead.p50)} | ${signed(c.current.overhead.p50)} | ${signed(d.median)} | ${d.low === null ? 'none (fewer than six rounds)' : `${signed(d.low)} … ${signed(d.high)}`} | ${c.hostCpu ? `${c.hostCpu.steal} % / ${c.hostCpu.busy} %` : '—'} |`,
    );
  }
  lines.push('', '(ms; streams: time to the first event; an interval that holds 0 is no measured difference)');
  return lines.join('\n');
}
