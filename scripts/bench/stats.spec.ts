/**
 * The bench's arithmetic: what it prints is only as good as its percentiles and the interval that
 * bench:compare puts around a difference between two builds.
 */
import { seededRandom } from '@unigate/catalog/lookup';
import {
  lowerTailRank,
  meanRatioInterval,
  medianWithInterval,
  overhead,
  percentile,
  percentileInterval,
  signTestRank,
  summarize,
  t95,
} from './stats.mjs';

/** P(B ≤ k) for B ~ Binomial(n, q), by summing exact terms in linear space (small n only). */
function binomialCdf(n: number, k: number, q = 0.5): number {
  let term = (1 - q) ** n;
  let sum = 0;
  for (let i = 0; i <= k; i++) {
    sum += term;
    term = (term * (n - i) * q) / ((i + 1) * (1 - q));
  }
  return sum;
}

/** A seeded standard normal draw (Box–Muller). */
function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** The standard normal quantile at 99 %. */
const Z99 = 2.3263478740408408;

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
    expect(summarize([1000.04, 99.96, 300.01, 5])).toMatchObject({ n: 4, p50: 100, p99: 1000, mean: 351.3, min: 5, max: 1000 });
  });

  it('bounds its p50 and p99 by order statistics, open where four samples cannot bound them', () => {
    const s = summarize([1000.04, 99.96, 300.01, 5]);
    // Four samples bound no percentile at 97.5 %: the chance that all four lie on one side of the median is 1/16.
    expect(s.p50Interval).toEqual({ low: null, high: null });
    const hundred = summarize(Array.from({ length: 100 }, (_, i) => 100 - i));
    expect(hundred.p50Interval).toEqual({ low: 39, high: 62 });
    // 100 samples bound a p99 from below (by the 96th) but not from above.
    expect(hundred.p99Interval).toEqual({ low: 96, high: null });
  });

  it('gives the overhead of a target as its p50 and p99 minus the floor’s', () => {
    expect(overhead({ p50: 812.34, p99: 2000 }, { p50: 412.3, p99: 2500.05 })).toEqual({ p50: 400, p99: -500.1 });
  });

  it('bounds an overhead by the target’s lowest bound minus the floor’s highest, and the other way round', () => {
    const target = { p50: 800, p99: 3000, p50Interval: { low: 780, high: 830 }, p99Interval: { low: 2500, high: null } };
    const floor = { p50: 400, p99: 1000, p50Interval: { low: 390, high: 420 }, p99Interval: { low: 900, high: 1200 } };
    expect(overhead(target, floor)).toEqual({
      p50: 400,
      p99: 2000,
      p50Interval: { low: 360, high: 440 },
      p99Interval: { low: 1300, high: null },
    });
  });
});

describe('the interval around a percentile (the targets table)', () => {
  it('takes the widest rank whose binomial tail is within bounds, for any percentile', () => {
    for (const [n, q] of [
      [50, 0.9],
      [150, 0.95],
      [120, 0.25],
    ]) {
      const k = lowerTailRank(n, q, 0.0125);
      expect(k).toBeGreaterThanOrEqual(0);
      expect(binomialCdf(n, k, q)).toBeLessThanOrEqual(0.0125);
      expect(binomialCdf(n, k + 1, q)).toBeGreaterThan(0.0125);
    }
    // Too few samples for the tail: no rank qualifies.
    expect(lowerTailRank(100, 0.01, 0.0125)).toBe(-1);
    // 3,000 samples, the bench's count: the p99 lies between the 2,957th and the 2,983rd.
    const sorted = Array.from({ length: 3000 }, (_, i) => i + 1);
    expect(percentileInterval(sorted, 99, 0.975)).toEqual({ low: 2957, high: 2983 });
  });

  it('holds the true p99 of a long-tailed distribution at its confidence', () => {
    const random = seededRandom(7);
    // Smaller than the bench's 3,000 samples to keep the test short; 1,000 still bound a p99 on both sides.
    const trials = 600;
    let covered = 0;
    for (let t = 0; t < trials; t++) {
      // Log-normal: its p99 is e^Z99 exactly.
      const sorted = Float64Array.from({ length: 1000 }, () => Math.exp(normal(random))).sort();
      const { low, high } = percentileInterval(sorted, 99, 0.975);
      if (low! <= Math.exp(Z99) && high! >= Math.exp(Z99)) covered++;
    }
    // Nominal ≥ 97.5 %; 600 trials put the count within about ±1.5 %. A median's ranks, or a
    // one-sided interval, miss far more often.
    expect(covered / trials).toBeGreaterThan(0.955);
    expect(covered / trials).toBeLessThan(0.995);
  });

  it('holds the true difference of two p99s in at least 95 % of runs, the sides drawn together', () => {
    const random = seededRandom(11);
    const trials = 300;
    let covered = 0;
    // A gateway's latency and the floor's: log-normal, sharing half their noise (both wait on the same
    // machine), the gateway's twice the floor's. Each log is standard normal (half shared, half its
    // own), so the true p99s are 2·e^Z99 and e^Z99.
    const truth = Math.exp(Z99);
    for (let t = 0; t < trials; t++) {
      const target: number[] = [];
      const floor: number[] = [];
      for (let i = 0; i < 1000; i++) {
        const shared = normal(random);
        target.push(2 * Math.exp(Math.SQRT1_2 * shared + Math.SQRT1_2 * normal(random)));
        floor.push(Math.exp(Math.SQRT1_2 * shared + Math.SQRT1_2 * normal(random)));
      }
      const { low, high } = overhead(summarize(target.map((x) => x * 1000)), summarize(floor.map((x) => x * 1000))).p99Interval!;
      if (low! <= truth * 1000 && high! >= truth * 1000) covered++;
    }
    expect(covered / trials).toBeGreaterThanOrEqual(0.95);
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
    // Below six, even the smallest and largest cover the median with less than 95 %.
    expect(signTestRank(5)).toBe(-1);
    expect(signTestRank(6)).toBe(0);
  });

  it('leaves the interval open with fewer than six values', () => {
    expect(medianWithInterval([3, 1, 2, 5, 4])).toEqual({ n: 5, median: 3, low: null, high: null });
    expect(medianWithInterval([3, 1, 2, 5, 4, 6])).toEqual({ n: 6, median: 3, low: 1, high: 6 });
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
      if (low !== null && high !== null && low <= 0 && high >= 0) covered++;
    }
    // Exact coverage for n = 300 is 1 − 2·P(B ≤ 132) ≈ 95.3 %; 2,000 trials put the count within ±1 %.
    expect(covered / trials).toBeGreaterThan(0.935);
    expect(covered / trials).toBeLessThan(0.97);
  });
});

describe('meanRatioInterval (no decay)', () => {
  it("takes Student's t quantiles within 0.003 of the tables", () => {
    const table: Array<[number, number]> = [
      [5, 2.570582],
      [6, 2.446912],
      [9, 2.262157],
      [18, 2.100922],
      [60, 2.000298],
      [1000, 1.962339],
    ];
    for (const [df, t] of table) expect(Math.abs(t95(df) - t)).toBeLessThan(0.003);
  });

  it('gives the ratio of the means, its interval widened by the spread of either side', () => {
    const six = (...xs: number[]) => [...xs, ...xs, ...xs];
    const steady = six(100, 100);
    expect(meanRatioInterval(six(90, 90), steady)).toEqual({ value: 0.9, low: 0.9, high: 0.9 });
    const spread = meanRatioInterval(six(80, 100), steady);
    expect(spread.value).toBeCloseTo(0.9, 12);
    expect(spread.low).toBeLessThan(0.9);
    expect(spread.high).toBeGreaterThan(0.9);
    const wider = meanRatioInterval(six(70, 110), steady);
    expect(wider.low).toBeLessThan(spread.low!);
    expect(wider.high).toBeGreaterThan(spread.high!);
    // Too few samples (five), or nothing served in a window: no bounds.
    expect(meanRatioInterval([1, 2, 3, 4, 5], steady)).toMatchObject({ low: null, high: null });
    expect(meanRatioInterval(six(0, 0), steady)).toMatchObject({ low: null, high: null });
  });

  it('covers the true ratio of two windows of noisy seconds about 95 % of the time', () => {
    const random = seededRandom(93);
    const trials = 4000;
    let covered = 0;
    for (let i = 0; i < trials; i++) {
      // Ten seconds of ~3,000 req/s with 5 % noise, against ten of the same rate times 0.93.
      const draw = (scale: number) => Array.from({ length: 10 }, () => 3000 * scale * (1 + 0.05 * normal(random)));
      const { low, high } = meanRatioInterval(draw(0.93), draw(1));
      if (low! <= 0.93 && 0.93 <= high!) covered++;
    }
    expect(covered / trials).toBeGreaterThanOrEqual(0.935);
    expect(covered / trials).toBeLessThan(0.97);
  });
});
