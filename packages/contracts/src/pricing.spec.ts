import type { Prices } from './catalog';
import { costMicros, holdMicros, promptUnits, usageFromChat } from './pricing';

// sigma-sonnet-4-6's built-in prices: $3 input, $0.30 cache read, $3.75 cache write (five minutes),
// $6 cache write (one hour), $15 output.
const SIGMA: Prices = {
  input_per_mtok: 3_000_000,
  cached_input_per_mtok: 300_000,
  cache_write_input_per_mtok: 3_750_000,
  cache_write_1h_input_per_mtok: 6_000_000,
  output_per_mtok: 15_000_000,
};

describe('cache writes', () => {
  it('prices prompt tokens written to the cache at the cache-write price, apart from reads and plain input', () => {
    const usage = { input_tokens: 10_000, cached_input_tokens: 6_000, cache_write_input_tokens: 3_000, output_tokens: 100 };
    // 1,000 plain input + 6,000 read + 3,000 written + 100 output
    expect(costMicros(SIGMA, usage)).toBe(Math.ceil((1_000 * 3_000_000 + 6_000 * 300_000 + 3_000 * 3_750_000 + 100 * 15_000_000) / 1e6));
  });

  it('charges a model without a cache-write price its input price for writes', () => {
    const plain: Prices = { input_per_mtok: 3_000_000, output_per_mtok: 15_000_000 };
    expect(costMicros(plain, { input_tokens: 1_000, cache_write_input_tokens: 1_000 })).toBe(costMicros(plain, { input_tokens: 1_000 }));
  });

  it('never counts a token as both read and written, nor more writes than the prompt holds', () => {
    const overReported = { input_tokens: 1_000, cached_input_tokens: 800, cache_write_input_tokens: 5_000 };
    expect(costMicros(SIGMA, overReported)).toBe(Math.ceil((800 * 300_000 + 200 * 3_750_000) / 1e6));
  });

  it('reads cache_write_tokens from chat usage, bounded by the uncached prompt', () => {
    expect(
      usageFromChat({
        prompt_tokens: 100,
        completion_tokens: 5,
        total_tokens: 105,
        prompt_tokens_details: { cached_tokens: 60, cache_write_tokens: 30 },
      }),
    ).toEqual({
      input_tokens: 100,
      cached_input_tokens: 60,
      cache_write_input_tokens: 30,
      output_tokens: 5,
    });
    expect(
      usageFromChat({
        prompt_tokens: 100,
        completion_tokens: 5,
        total_tokens: 105,
        prompt_tokens_details: { cached_tokens: 90, cache_write_tokens: 30 },
      }),
    ).toMatchObject({
      cache_write_input_tokens: 10,
    });
    expect(usageFromChat({ prompt_tokens: 100, completion_tokens: 5, total_tokens: 105 })).not.toHaveProperty('cache_write_input_tokens');
  });

  it('holds the prompt at the cache-write price when writes cost more than input: the hold covers any charge', () => {
    const worst = { input_tokens: 10_000, output_tokens: 1_000 };
    const fiveMinutes: Prices = { ...SIGMA, cache_write_1h_input_per_mtok: undefined };
    const hold = holdMicros(fiveMinutes, worst);
    expect(hold).toBe(Math.ceil((10_000 * 3_750_000 + 1_000 * 15_000_000) / 1e6));
    // the dearest charge the same call can get: the whole prompt written to the cache
    expect(hold).toBeGreaterThanOrEqual(costMicros(fiveMinutes, { ...worst, cache_write_input_tokens: 10_000 }));
    expect(hold).toBeGreaterThanOrEqual(
      costMicros(fiveMinutes, { ...worst, cache_write_input_tokens: 10_000, cache_write_1h_input_tokens: 10_000 }),
    );
    // without a dearer write price, the hold is the worst case's plain cost
    const cheapWrites: Prices = { ...SIGMA, cache_write_input_per_mtok: 1_000_000, cache_write_1h_input_per_mtok: 2_000_000 };
    expect(holdMicros(cheapWrites, worst)).toBe(costMicros(cheapWrites, worst));
    expect(holdMicros({ input_per_mtok: 3_000_000, output_per_mtok: 15_000_000 }, worst)).toBe(costMicros(SIGMA, worst));
  });

  it('holds the prompt at the one-hour write price only for a call that asks for one-hour writes, which it then covers', () => {
    const worst = { input_tokens: 10_000, output_tokens: 1_000 };
    // no ttl of "1h" in the request: no one-hour write can come, the five-minute price is the dearest
    expect(holdMicros(SIGMA, worst)).toBe(Math.ceil((10_000 * 3_750_000 + 1_000 * 15_000_000) / 1e6));
    // the plan marks a request that asks for one-hour writes
    const asking = { ...worst, cache_write_1h_input_tokens: 10_000 };
    const hold = holdMicros(SIGMA, asking);
    expect(hold).toBe(Math.ceil((10_000 * 6_000_000 + 1_000 * 15_000_000) / 1e6));
    expect(hold).toBeGreaterThanOrEqual(
      costMicros(SIGMA, { ...worst, cache_write_input_tokens: 10_000, cache_write_1h_input_tokens: 10_000 }),
    );
    // a prompt partly read from the cache: only the rest can be written
    const partlyRead = { ...asking, cached_input_tokens: 4_000 };
    expect(holdMicros(SIGMA, partlyRead)).toBe(Math.ceil((4_000 * 300_000 + 6_000 * 6_000_000 + 1_000 * 15_000_000) / 1e6));
    // a one-hour price below the five-minute one: the five-minute price is the dearest
    const cheapHour: Prices = { ...SIGMA, cache_write_1h_input_per_mtok: 3_000_000 };
    expect(holdMicros(cheapHour, asking)).toBe(Math.ceil((10_000 * 3_750_000 + 1_000 * 15_000_000) / 1e6));
    // writes no dearer than input: the plain cost, the mark priced at nothing
    const cheapWrites: Prices = { ...SIGMA, cache_write_input_per_mtok: 1_000_000, cache_write_1h_input_per_mtok: 2_000_000 };
    expect(holdMicros(cheapWrites, asking)).toBe(costMicros(cheapWrites, worst));
  });
});

describe('one-hour cache writes', () => {
  it('prices the one-hour part of the writes at the one-hour price and the rest at the five-minute price', () => {
    const usage = {
      input_tokens: 10_000,
      cached_input_tokens: 6_000,
      cache_write_input_tokens: 3_000,
      cache_write_1h_input_tokens: 1_000,
      output_tokens: 100,
    };
    // 1,000 plain input + 6,000 read + 2,000 written for 5 minutes + 1,000 written for an hour + 100 output
    expect(costMicros(SIGMA, usage)).toBe(
      Math.ceil((1_000 * 3_000_000 + 6_000 * 300_000 + 2_000 * 3_750_000 + 1_000 * 6_000_000 + 100 * 15_000_000) / 1e6),
    );
  });

  it('charges a model without a one-hour price its five-minute write price, and one without either its input price', () => {
    const fiveMinutes: Prices = { ...SIGMA, cache_write_1h_input_per_mtok: undefined };
    const usage = { input_tokens: 1_000, cache_write_input_tokens: 1_000, cache_write_1h_input_tokens: 1_000 };
    expect(costMicros(fiveMinutes, usage)).toBe(costMicros(fiveMinutes, { input_tokens: 1_000, cache_write_input_tokens: 1_000 }));
    const plain: Prices = { input_per_mtok: 3_000_000, output_per_mtok: 15_000_000 };
    expect(costMicros(plain, usage)).toBe(costMicros(plain, { input_tokens: 1_000 }));
  });

  it('counts no more one-hour writes than writes', () => {
    const overReported = {
      input_tokens: 1_000,
      cached_input_tokens: 800,
      cache_write_input_tokens: 100,
      cache_write_1h_input_tokens: 5_000,
    };
    // 100 plain input + 800 read + 100 written, all for an hour
    expect(costMicros(SIGMA, overReported)).toBe(Math.ceil((100 * 3_000_000 + 800 * 300_000 + 100 * 6_000_000) / 1e6));
    expect(promptUnits(1_000, 800, 100, 5_000)).toEqual({
      input_tokens: 1_000,
      cached_input_tokens: 800,
      cache_write_input_tokens: 100,
      cache_write_1h_input_tokens: 100,
    });
    expect(promptUnits(1_000, 800, 0, 5_000)).not.toHaveProperty('cache_write_1h_input_tokens');
  });
});
