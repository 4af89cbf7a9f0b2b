/**
 * The head-to-head rounds' bookkeeping, with the load runs scripted: who goes first in each round,
 * which window is dropped, and the ratio's median and interval.
 */
import { headToHead, settledRps } from './head-to-head.mjs';

const config = { headToHead: { rounds: 10, sliceSeconds: 3, windows: 3 } };
const slice = (...rps: number[]) => ({ windows: rps.map((r, i) => ({ from: i, to: i + 1, rps: r })) });

describe('settledRps', () => {
  it("drops a slice's first window and averages the rest", () => {
    expect(settledRps(slice(100, 900, 1100))).toBe(1000);
  });
});

describe('headToHead', () => {
  it('alternates which gateway goes first, one non-streaming slice each per round', async () => {
    const calls: Array<{ name: string; stream: boolean; seconds: number; windows?: number }> = [];
    const run = async (target: { name: string }, _c: unknown, opts: { stream: boolean; seconds: number; windows?: number }) => {
      calls.push({ name: target.name, ...opts });
      return slice(1, target.name === 'standalone' ? 2000 : 1000, target.name === 'standalone' ? 2000 : 1000);
    };
    const result = await headToHead({ name: 'standalone' }, { name: 'portkey' }, { headToHead: { ...config.headToHead, rounds: 3 } }, run);
    expect(calls.map((c) => c.name)).toEqual(['standalone', 'portkey', 'portkey', 'standalone', 'standalone', 'portkey']);
    expect(calls.every((c) => c.stream === false && c.seconds === 3 && c.windows === 3)).toBe(true);
    expect(result.rounds[1]).toEqual({ first: 'portkey', standalone: 2000, portkey: 1000, ratio: 2 });
  });

  it('runs the warm-up rounds first and leaves them out of the rounds and the ratio', async () => {
    let call = 0;
    // The first round (two slices) finds standalone at a tenth of its later rate.
    const run = async (target: { name: string }) => {
      const warm = call++ >= 2;
      return target.name === 'standalone' ? slice(1, warm ? 2400 : 240, warm ? 2400 : 240) : slice(1, 1000, 1000);
    };
    const result = await headToHead(
      { name: 'standalone' },
      { name: 'portkey' },
      { headToHead: { ...config.headToHead, rounds: 6, warmupRounds: 1 } },
      run,
    );
    expect(call).toBe(14);
    expect(result.rounds).toHaveLength(6);
    // Counted rounds keep alternating from where the warm-up left off: the first counted one is Portkey's.
    expect(result.rounds.map((r: { first: string }) => r.first)).toEqual([
      'portkey',
      'standalone',
      'portkey',
      'standalone',
      'portkey',
      'standalone',
    ]);
    expect(result.ratio).toEqual({ median: 2.4, low: 2.4, high: 2.4 });
    expect(result.warmupRounds).toBe(1);
  });

  it("gives the median round's ratio and the sign test's interval (10 rounds: the 2nd lowest and 2nd highest)", async () => {
    // Round i: standalone at 1,000 + 100·i req/s, Portkey at 500 with the warm-up window far off.
    let call = 0;
    const run = async (target: { name: string }) => {
      const round = Math.floor(call++ / 2);
      return target.name === 'standalone' ? slice(5, 1000 + 100 * round, 1000 + 100 * round) : slice(9999, 500, 500);
    };
    const result = await headToHead({ name: 'standalone' }, { name: 'portkey' }, config, run);
    expect(result.rounds.map((r: { ratio: number }) => r.ratio)).toEqual(
      [2, 2.2, 2.4, 2.6, 2.8, 3, 3.2, 3.4, 3.6, 3.8].map((x) => expect.closeTo(x, 9)),
    );
    expect(result.ratio).toEqual({ median: 2.8, low: 2.2, high: 3.6 });
    expect(result).toMatchObject({ a: 'standalone', b: 'portkey', sliceSeconds: 3 });
  });
});
