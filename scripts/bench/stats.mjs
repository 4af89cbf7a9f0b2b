/** Summaries of latency samples in microseconds (nearest-rank percentiles). */

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

// The clock reads nanoseconds; a tenth of a microsecond is already below anything worth reading.
export const tenth = (us) => Math.round(us * 10) / 10;

export function summarize(samplesUs) {
  const sorted = Float64Array.from(samplesUs).sort();
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    n: sorted.length,
    p50: tenth(percentile(sorted, 50)),
    p99: tenth(percentile(sorted, 99)),
    mean: tenth(sorted.length ? sum / sorted.length : NaN),
    min: tenth(sorted[0] ?? NaN),
    max: tenth(sorted[sorted.length - 1] ?? NaN),
  };
}

/** `a` minus `b` at p50 and p99 (what a gateway adds to the floor). */
export const overhead = (a, b) => ({ p50: tenth(a.p50 - b.p50), p99: tenth(a.p99 - b.p99) });

/**
 * The largest k with P(B ≤ k) ≤ 2.5 % for B ~ Binomial(n, 1/2) (the number of samples below the true
 * median), computed exactly in log space; 0 when no k qualifies (n < 6). The order statistics at
 * 0-based ranks k and n − 1 − k then cover the median with probability 1 − 2·P(B ≤ k) ≥ 95 %.
 */
export function signTestRank(n) {
  let logPmf = -n * Math.LN2; // P(B = 0)
  let cdf = Math.exp(logPmf);
  let k = -1;
  for (let i = 0; i < n && cdf <= 0.025; i++) {
    k = i;
    logPmf += Math.log(n - i) - Math.log(i + 1); // P(B = i + 1)
    cdf += Math.exp(logPmf);
  }
  return Math.max(0, k);
}

/**
 * The median of `diffs` with a 95 % confidence interval from order statistics (the sign test's: no
 * assumption about the distribution, which here has long tails).
 */
export function medianWithInterval(diffs) {
  const sorted = Float64Array.from(diffs).sort();
  const n = sorted.length;
  const k = signTestRank(n);
  return { n, median: tenth(percentile(sorted, 50)), low: tenth(sorted[k]), high: tenth(sorted[n - 1 - k]) };
}
