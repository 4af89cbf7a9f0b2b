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
