/**
 * The bench's arithmetic: what it prints is only as good as its percentiles and the interval that
 * bench:compare puts around a difference between two builds.
 */
import { seededRandom } from '@unigate/catalog/lookup';
import { medianWithInterval, overhead, percentile, signTestRank, summarize } from './stats.mjs';

/** P(B ≤ k) for B ~ Binomial(n, 1/2), by summing exact terms (small n only). */
function binomialCdf(n: number, k: number): number {
  let term = 2 ** -n;
  let sum = 0;
  for (let i = 0; i <= k; i++) {
    sum += term;
    term = (term * (n - i)) / (i + 1);
  }
  return sum;
}

describe('percentile (nearest rank)', () => {
  it('takes the sample at rank ceil(p/100 · n), clamped to the samples', () => {
    const sorted = [10, 20, 30, 40];
    expect(percentile(sorted, 50)).toBe(20);
    expect(percentile(sorted, 51)).toBe(30);
    expect(percentile(sorted, 99)).toBe(40);
    expect(percentile(sorted, 0)).toBe(10);
    expect(percentile([], 50)).toBeNaN();
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(hundred, 99)).toBe(99);
  });
});

describe('summarize', () => {
  it('sorts numerically and rounds to a tenth of a microsecond', () => {
    // Lexical order would put 1000.04 before 99.96.
    expect(summarize([1000.04, 99.96, 300.01, 5])).toEqual({ n: 4, p50: 100, p99: 1000, mean: 351.3, min: 5, max: 1000 });
  });

  it('gives the overhead of a target as its p50 and p99 minus the floor’s', () => {
    expect(overhead({ p50: 812.34, p99: 2000 }, { p50: 412.3, p99: 2500.05 })).toEqual({ p50: 400, p99: -500.1 });
  });
});

describe('the interval around a median difference (bench:compare)', () => {
  it('uses the widest rank whose tail is at most 2.5 %, like the sign test tables', () => {
    // Published 95 % intervals for the median: n = 10 → ranks 2 and 9, n = 20 → 6 and 15, n = 100 → 40 and 61 (1-based).
    expect(signTestRank(10)).toBe(1);
    expect(signTestRank(20)).toBe(5);
    expect(signTestRank(100)).toBe(39);
    for (const n of [6, 10, 37, 100, 300, 1000]) {
      const k = signTestRank(n);
      expect(binomialCdf(n, k)).toBeLessThanOrEqual(0.025);
      expect(binomialCdf(n, k + 1)).toBeGreaterThan(0.025);
    }
    expect(signTestRank(3000)).toBe(1445);
  });

  it('takes its bounds from those ranks of the sorted differences', () => {
    const diffs = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 … 1, unsorted for the function
    expect(medianWithInterval(diffs)).toEqual({ n: 100, median: 50, low: 40, high: 61 });
  });

  it('holds the true median in about 95 % of runs, on a long-tailed distribution', () => {
    // Seeded (the catalog's mulberry32): the coverage check must not flake.
    const random = seededRandom(42);
    // Log-normal (the shape of latency differences' tails), in µs, shifted so that its median is 0.
    const draw = () => 1000 * (Math.exp(Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())) - 1);
    const trials = 2000;
    let covered = 0;
    for (let t = 0; t < trials; t++) {
      const { low, high } = medianWithInterval(Array.from({ length: 300 }, draw));
      // Bounds are rounded to a tenth; the true median, 0, is inside when low ≤ 0 ≤ high.
      if (low <= 0 && high >= 0) covered++;
    }
    // Exact coverage for n = 300 is 1 − 2·P(B ≤ 132) ≈ 95.3 %; 2,000 trials put the count within ±1 %.
    expect(covered / trials).toBeGreaterThan(0.935);
    expect(covered / trials).toBeLessThan(0.97);
  });
});
