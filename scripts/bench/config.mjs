/**
 * What one `npm run bench` does, from the environment. The defaults keep a full run of all five targets
 * around fifteen minutes on 2 cores; BENCH_QUICK=1 is a smoke run of a couple of minutes.
 *
 *   BENCH_TARGETS=direct,proxy,standalone,distributed,portkey   which targets to measure (the simulator always runs)
 *   BENCH_QUICK=1                 short phases, for developing the bench itself
 *   BENCH_SEQUENTIAL=3000         sequential non-streaming requests per gateway target (streams: BENCH_SEQUENTIAL_STREAM,
 *                                 a coding agent's 60 KB prompt: BENCH_SEQUENTIAL_LARGE, after 50 ms idle: BENCH_SEQUENTIAL_IDLE)
 *   BENCH_SEQUENTIAL_SECONDS=30   ...but no longer than this per case
 *   BENCH_DURATION=10             seconds of each max-throughput run (after BENCH_WARMUP seconds)
 *   BENCH_FIRST_WARMUP=5          seconds of load per case after a target starts, before anything is measured
 *   BENCH_DECAY_SECONDS=60        the no-decay run, reported in six windows
 *   BENCH_CONNECTIONS=64          connections of the throughput and decay runs
 *   BENCH_HEAD_TO_HEAD_ROUNDS=10  counted rounds of standalone and Portkey loaded in turn (head-to-head.mjs), 3 s slices; 0: none
 *   BENCH_MODEL=omega-k3          see docs/benchmark.md for why this model
 *   BENCH_RESULTS_DIR             where the results' JSON goes (default bench/results)
 *   --docs                        also rewrite the latest-numbers section of docs/benchmark.md
 */
export const ALL_TARGETS = ['direct', 'proxy', 'standalone', 'distributed', 'portkey'];

/** A setting or argument the bench cannot run with: printed as its message alone, without a stack. */
export class UsageError extends Error {}

/** How an entry script reports what stopped it: a UsageError by its message, anything else whole. */
export function reportFailure(err) {
  if (err instanceof UsageError) console.error(`bench: ${err.message}`);
  else console.error(err);
}

const number = (name, fallback) => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new UsageError(`${name} must be a non-negative number, got '${raw}'`);
  return value;
};

export function readConfig(argv = process.argv.slice(2)) {
  const quick = process.env.BENCH_QUICK === '1';
  const targets = (process.env.BENCH_TARGETS ?? ALL_TARGETS.join(','))
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const unknown = targets.filter((t) => !ALL_TARGETS.includes(t));
  if (unknown.length) throw new UsageError(`BENCH_TARGETS: unknown target(s) ${unknown.join(', ')}; known: ${ALL_TARGETS.join(', ')}`);
  return {
    quick,
    targets,
    model: process.env.BENCH_MODEL || 'omega-k3',
    maxTokens: 32,
    sequential: {
      json: number('BENCH_SEQUENTIAL', quick ? 300 : 3000),
      // A stream takes ~50 ms at the simulator's pace (2 ms per chunk), so fewer of them fit.
      stream: number('BENCH_SEQUENTIAL_STREAM', quick ? 30 : 300),
      large: number('BENCH_SEQUENTIAL_LARGE', quick ? 100 : 1000),
      // Each request after this much idle time, about what a stream of the streaming case lasts.
      idle: number('BENCH_SEQUENTIAL_IDLE', quick ? 30 : 300),
      idlePauseMs: 50,
      maxSeconds: number('BENCH_SEQUENTIAL_SECONDS', quick ? 4 : 30),
      warmup: quick ? 20 : 200,
    },
    connections: number('BENCH_CONNECTIONS', 64),
    // JIT and connection pools: Portkey, for one, still speeds up for seconds after it starts.
    firstWarmupSeconds: number('BENCH_FIRST_WARMUP', quick ? 2 : 5),
    warmupSeconds: number('BENCH_WARMUP', quick ? 1 : 2),
    durationSeconds: number('BENCH_DURATION', quick ? 3 : 10),
    decay: { seconds: number('BENCH_DECAY_SECONDS', quick ? 12 : 60), windows: 6 },
    // One-second windows: each slice's first is its warm-up. Ten counted rounds give the sign test's
    // interval the second-lowest and second-highest ratio; six (quick) only the extremes.
    headToHead: {
      rounds: number('BENCH_HEAD_TO_HEAD_ROUNDS', quick ? 6 : 10),
      warmupRounds: quick ? 1 : 2,
      sliceSeconds: quick ? 2 : 3,
      windows: quick ? 2 : 3,
    },
    rssIntervalMs: 500,
    creditUsd: 1_000_000,
    resultsDir: process.env.BENCH_RESULTS_DIR || undefined,
    writeDocs: argv.includes('--docs'),
  };
}
