/**
 * The window arithmetic, to the millisecond, on an injected clock. The Redis scripts implement the
 * same rules on Redis's clock (test/limits.limiters.test.ts runs one behaviour table against both).
 */
import { GatewayError, type KeyPrincipal } from '@unigate/contracts';
import { MemoryMoney } from './memory-money';
import { MemoryReservations, type MemoryReservationOptions } from './memory-reservations';
import { leaseTtlEnv } from './redis-reservations';
import { DEFAULT_LEASE_TTL_MS, holdLife, MAX_HOLD_TTL_SECONDS } from './reservations';

const key = (rpm: number | null, concurrency: number | null = null): KeyPrincipal => ({
  key_id: 'k1',
  account_id: 'a1',
  models: [],
  rate_limit_rpm: rpm,
  max_concurrency: concurrency,
  tier: 'paid',
});

const open = (opts: MemoryReservationOptions) => new MemoryReservations(new MemoryMoney(async () => null), opts);

describe('MemoryReservations window', () => {
  let now = 0;
  let limiter: MemoryReservations;
  beforeEach(() => {
    now = 1_000_000;
    limiter = open({ now: () => now });
  });
  afterEach(() => limiter.close());

  const at = async (t: number, p: KeyPrincipal) => {
    now = 1_000_000 + t;
    return limiter.admit({ principal: p, request_id: `req_${t}`, amount_micros: 0 }).then(
      () => 'admitted',
      (e: GatewayError) => `429 retry ${e.retryAfter}s`,
    );
  };

  it('counts an admission at t for exactly [t, t + 60 000 ms): a sliding window, not a fixed one', async () => {
    const p = key(2);
    expect(await at(0, p)).toBe('admitted');
    expect(await at(30_000, p)).toBe('admitted');
    expect(await at(59_999, p)).toBe('429 retry 1s'); // 1 ms until the first admission leaves
    expect(await at(60_000, p)).toBe('admitted'); // it left exactly now
    expect(await at(60_001, p)).toBe('429 retry 30s'); // 29 999 ms until the t=30 000 one leaves
    expect(await at(89_999, p)).toBe('429 retry 1s');
    expect(await at(90_000, p)).toBe('admitted');
  });

  it('never admits more than the limit in any 60-second span, even straddling a minute boundary', async () => {
    const p = key(3);
    const results = [];
    for (let t = 0; t < 180_000; t += 7_000) results.push({ t, r: await at(t, p) });
    const admittedAt = results.filter((x) => x.r === 'admitted').map((x) => x.t);
    for (const start of admittedAt) expect(admittedAt.filter((t) => t >= start && t < start + 60_000).length).toBeLessThanOrEqual(3);
    expect(admittedAt.length).toBeGreaterThanOrEqual(9);
  });

  it('rounds Retry-After up to whole seconds, at least 1', async () => {
    const p = key(1);
    expect(await at(0, p)).toBe('admitted');
    expect(await at(1, p)).toBe('429 retry 60s');
    expect(await at(58_500, p)).toBe('429 retry 2s');
  });

  it('expires a slot at its TTL unless refreshed', async () => {
    await limiter.close();
    limiter = open({ now: () => now, leaseTtlMs: 10_000 });
    const p = key(null, 1);
    expect(await at(0, p)).toBe('admitted');
    expect(await at(9_999, p)).toBe('429 retry 1s');
    expect(await at(10_000, p)).toBe('admitted');
  });
});

describe('hold lifetimes', () => {
  it('default to a lease TTL while the call runs and ten minutes after; a TTL asked for holds throughout, capped at a week', () => {
    expect(holdLife(undefined, DEFAULT_LEASE_TTL_MS)).toEqual({ runningMs: 60_000, endedMs: 600_000 });
    expect(holdLife(undefined, 3_600_000)).toEqual({ runningMs: 600_000, endedMs: 600_000 });
    expect(holdLife(3_600, 60_000)).toEqual({ runningMs: 3_600_000, endedMs: 3_600_000 });
    expect(holdLife(10 ** 9, 60_000)).toEqual({ runningMs: MAX_HOLD_TTL_SECONDS * 1000, endedMs: MAX_HOLD_TTL_SECONDS * 1000 });
    expect(MAX_HOLD_TTL_SECONDS).toBe(7 * 24 * 3600);
  });

  it('UNIGATE_LEASE_TTL_MS: blank is the default, out of 1000–600000 or not whole is refused', () => {
    expect(leaseTtlEnv.parse(undefined)).toBeUndefined();
    expect(leaseTtlEnv.parse(' ')).toBeUndefined();
    expect(leaseTtlEnv.parse('3000')).toBe(3_000);
    for (const bad of ['999', '600001', '1.5e3x', '2500.5']) expect(leaseTtlEnv.safeParse(bad).success).toBe(false);
  });
});
