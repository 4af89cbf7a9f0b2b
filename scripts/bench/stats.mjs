/** Summaries of latency samples in microseconds (nearest-rank percentiles). */

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

// The clock reads nanoseconds; a tenth of a microsecond is already below anything worth reading.
export const tenth = (us) => Math.round(us * 10) / 10;

/**
 * Each side's percentiles carry bounds at this confidence, so that the difference of two sides' (an
 * overhead) holds with at least 95 %: each side's bounds miss with at most 1.25 % + 1.25 %, whatever
 * the dependence between the sides (Bonferroni).
 */
export const SIDE_CONFIDENCE = 0.975;

export function summarize(samplesUs) {
  const sorted = Float64Array.from(samplesUs).sort();
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    n: sorted.length,
    p50: tenth(percentile(sorted, 50)),
    p99: tenth(percentile(sorted, 99)),
    p50Interval: rounded(percentileInterval(sorted, 50, SIDE_CONFIDENCE)),
    p99Interval: rounded(percentileInterval(sorted, 99, SIDE_CONFIDENCE)),
    mean: tenth(sorted.length ? sum / sorted.length : NaN),
    min: tenth(sorted[0] ?? NaN),
    max: tenth(sorted[sorted.length - 1] ?? NaN),
  };
}

const rounded = ({ low, high }) => ({ low: low === null ? null : tenth(low), high: high === null ? null : tenth(high) });

/**
 * `a` minus `b` at p50 and p99 (what a gateway adds to the floor), with a 95 % interval for each when
 * both sides have bounds (results written before they did have none): from a's lowest plausible
 * percentile minus b's highest to the other way round. null where a side has no bound.
 *
 * @typedef {{ low: number | null, high: number | null }} Interval
 * @returns {{ p50: number, p99: number, p50Interval?: Interval, p99Interval?: Interval }}
 */
export function overhead(a, b) {
  /** @type {{ p50: number, p99: number, p50Interval?: Interval, p99Interval?: Interval }} */
  const out = { p50: tenth(a.p50 - b.p50), p99: tenth(a.p99 - b.p99) };
  for (const p of ['p50', 'p99']) {
    const ia = a[`${p}Interval`];
    const ib = b[`${p}Interval`];
    if (!ia || !ib) continue;
    const minus = (x, y) => (x === null || y === null ? null : tenth(x - y));
    out[`${p}Interval`] = { low: minus(ia.low, ib.high), high: minus(ia.high, ib.low) };
  }
  return out;
}

/**
 * The largest k with P(B ≤ k) ≤ `tail` for B ~ Binomial(n, q), computed exactly in log space; −1 when
 * no k qualifies (too few samples).
 */
export function lowerTailRank(n, q, tail) {
  // The 0th and 100th percentiles are not bounded here (nothing lies beyond them).
  if (n === 0 || q <= 0 || q >= 1) return -1;
  const step = Math.log(q) - Math.log1p(-q);
  let logPmf = n * Math.log1p(-q); // P(B = 0)
  let cdf = Math.exp(logPmf);
  let k = -1;
  for (let i = 0; i < n && cdf <= tail; i++) {
    k = i;
    logPmf += Math.log(n - i) - Math.log(i + 1) + step; // P(B = i + 1)
    cdf += Math.exp(logPmf);
  }
  return k;
}

/**
 * Bounds for the p-th percentile of the distribution `sorted` was drawn from, from its order statistics
 * (no assumption about the distribution's shape; latencies have long tails): they hold it with
 * probability at least `confidence`. B, the number of samples below the true percentile, is
 * Binomial(n, p/100): the sample at 0-based rank k lies above it with P(B ≤ k), and the one at
 * n − 1 − k below it with P(B' ≤ k), B' ~ Binomial(n, 1 − p/100) counting those above. A side is null
 * when n is too small to bound it (an extreme percentile of few samples).
 */
export function percentileInterval(sorted, p, confidence) {
  const tail = (1 - confidence) / 2;
  const n = sorted.length;
  const low = lowerTailRank(n, p / 100, tail);
  const high = lowerTailRank(n, 1 - p / 100, tail);
  return { low: low >= 0 ? sorted[low] : null, high: high >= 0 ? sorted[n - 1 - high] : null };
}

/**
 * The largest k with P(B ≤ k) ≤ 2.5 % for B ~ Binomial(n, 1/2) (the number of samples below the true
 * median); −1 when no k qualifies (n < 6: even the extremes cover it with less than 95 %). The order
 * statistics at 0-based ranks k and n − 1 − k then cover the median with probability 1 − 2·P(B ≤ k) ≥ 95 %.
 */
export const signTestRank = (n) => lowerTailRank(n, 0.5, 0.025);

/**
 * The median of `values` with a 95 % confidence interval from order statistics (the sign test's: no
 * assumption about the distribution, which here has long tails); both bounds null with fewer than six
 * values. `round` is for microseconds by default; ratios pass their own.
 */
export function medianWithInterval(values, round = tenth) {
  const sorted = Float64Array.from(values).sort();
  const n = sorted.length;
  const k = signTestRank(n);
  const bound = (rank) => (k >= 0 ? round(sorted[rank]) : null);
  return { n, median: round(percentile(sorted, 50)), low: bound(k), high: bound(n - 1 - k) };
}

/**
 * Student's t quantile at two-sided 95 % for `df` degrees of freedom, by the Cornish–Fisher expansion
 * around the normal's (within 0.003 of the tables from 5 degrees of freedom on).
 */
export function t95(df) {
  const z = 1.959963984540054;
  const [z3, z5, z7] = [z ** 3, z ** 5, z ** 7];
  return z + (z3 + z) / (4 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96 * df ** 2) + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df ** 3);
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const variance = (xs) => {
  const m = mean(xs);
  return xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1);
};

/**
 * How many times `a`'s mean is `b`'s, with a 95 % interval: Welch's t on the logarithm of the ratio,
 * its standard error by the delta method (each mean's relative standard error, combined) and its
 * degrees of freedom by Welch–Satterthwaite. For the no-decay verdict: the answers of each second of the
 * first and of the last window, so that a ratio moved by a few slow seconds comes with the width they
 * give it. Seconds of one load are not quite independent: read the bounds as approximate. Both bounds
 * null with fewer than six samples a side (the degrees of freedom then stay at five or more, where t95
 * holds) or a mean that is not positive.
 */
export function meanRatioInterval(a, b) {
  const none = { value: NaN, low: null, high: null };
  if (a.length < 6 || b.length < 6) return none;
  const [ma, mb] = [mean(a), mean(b)];
  if (!(ma > 0 && mb > 0)) return none;
  const value = ma / mb;
  const va = variance(a) / (a.length * ma ** 2);
  const vb = variance(b) / (b.length * mb ** 2);
  if (va + vb === 0) return { value, low: value, high: value };
  const df = (va + vb) ** 2 / (va ** 2 / (a.length - 1) + vb ** 2 / (b.length - 1));
  const half = t95(df) * Math.sqrt(va + vb);
  return { value, low: value * Math.exp(-half), high: value * Math.exp(half) };
}
