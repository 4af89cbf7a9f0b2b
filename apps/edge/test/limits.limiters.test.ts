/**
 * One behaviour table, run against both KeyLimiters: RedisKeyLimiter on the local Redis (each test
 * under its own key prefix) and InMemoryKeyLimiter. "Replica" is a second limiter on the same store:
 * another Redis connection, or — in memory, where the process is the whole store — the same object.
 */
import { randomUUID } from 'node:crypto';
import { GatewayError, type KeyPrincipal } from '@unigate/contracts';
import { freePort, redisUrl, uniqueName } from '@unigate/testing';
import { InMemoryKeyLimiter } from '../src/limits/in-memory-key-limiter';
import { NO_LEASE, type KeyLimiter, type KeyLimiterOptions, type Lease } from '../src/limits/key-limiter';
import { connectRedisForLimits, RedisKeyLimiter } from '../src/limits/redis-key-limiter';

interface Store {
  limiter(opts?: KeyLimiterOptions): Promise<KeyLimiter>;
  /** Another replica on the same store as `of`. */
  replica(of: KeyLimiter, opts?: KeyLimiterOptions): Promise<KeyLimiter>;
}

const opened: KeyLimiter[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((l) => l.close()));
});
const track = (l: KeyLimiter) => (opened.push(l), l);

async function readyRedisLimiter(prefix: string, opts: KeyLimiterOptions = {}): Promise<KeyLimiter> {
  const limiter = track(new RedisKeyLimiter(connectRedisForLimits(redisUrl()), { ...opts, keyPrefix: prefix }));
  await until(() =>
    limiter.checkReady().then(
      () => true,
      () => false,
    ),
  );
  return limiter;
}

const prefixes = new WeakMap<KeyLimiter, string>();
const stores: Array<[string, () => Store]> = [
  [
    'RedisKeyLimiter',
    () => ({
      async limiter(opts) {
        const prefix = `${uniqueName('limits')}:`;
        const l = await readyRedisLimiter(prefix, opts);
        prefixes.set(l, prefix);
        return l;
      },
      replica: (of, opts) => readyRedisLimiter(prefixes.get(of)!, opts),
    }),
  ],
  [
    'InMemoryKeyLimiter',
    () => ({
      limiter: async (opts) => track(new InMemoryKeyLimiter(opts)),
      replica: async (of) => of,
    }),
  ],
];

const key = (limits: { rpm?: number; concurrency?: number }, keyId = randomUUID()): KeyPrincipal => ({
  key_id: keyId,
  account_id: 'acct',
  models: [],
  rate_limit_rpm: limits.rpm ?? null,
  max_concurrency: limits.concurrency ?? null,
});
const req = () => `req_${randomUUID().replace(/-/g, '').slice(0, 24)}`;

/** Every outcome of a batch: leases of the admitted, errors of the rejected. */
async function settle(attempts: Array<Promise<Lease>>) {
  const results = await Promise.allSettled(attempts);
  const leases = results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<Lease>).value);
  const rejected = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason as GatewayError);
  return { leases, rejected };
}

function expectThrottled(err: unknown, retryAfter?: { min: number; max: number }) {
  expect(err).toBeInstanceOf(GatewayError);
  const e = err as GatewayError;
  expect([e.status, e.code]).toEqual([429, 'Throttling.RateQuota']);
  expect(Number.isInteger(e.retryAfter)).toBe(true);
  if (retryAfter) {
    expect(e.retryAfter).toBeGreaterThanOrEqual(retryAfter.min);
    expect(e.retryAfter).toBeLessThanOrEqual(retryAfter.max);
  }
}

function expectConcurrencyRejection(err: unknown) {
  expectThrottled(err, { min: 1, max: 1 });
  expect((err as Error).message).toMatch(/Concurrency limit/);
}

async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const admitted = (l: KeyLimiter, p: KeyPrincipal) =>
  l.acquire(p, req()).then(
    (lease) => (void lease.release(), true),
    () => false,
  );

describe.each(stores)('%s', (_name, makeStore) => {
  let store: Store;
  beforeEach(() => {
    store = makeStore();
  });

  it('admits a key without limits with no lease to give back', async () => {
    const l = await store.limiter();
    const leases = await Promise.all(Array.from({ length: 50 }, () => l.acquire(key({}), req())));
    expect(leases.every((x) => x === NO_LEASE)).toBe(true);
  });

  it('admits exactly rate_limit_rpm requests of a racing burst, across replicas, and rejects the rest with Retry-After', async () => {
    const a = await store.limiter();
    const b = await store.replica(a);
    const p = key({ rpm: 7 });
    const { leases, rejected } = await settle(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).acquire(p, req())));
    expect(leases).toHaveLength(7);
    expect(rejected).toHaveLength(23);
    for (const err of rejected) expectThrottled(err, { min: 1, max: 60 });
    expect(rejected[0].message).toMatch(/7 requests per minute/);
    // Releasing does not give rate back: the window counts admissions, not requests in flight.
    await Promise.all(leases.map((x) => x.release()));
    await expect(a.acquire(p, req())).rejects.toBeInstanceOf(GatewayError);
  });

  it('admits exactly max_concurrency racing requests; a release lets exactly one more in; release is idempotent', async () => {
    const a = await store.limiter();
    const b = await store.replica(a);
    const p = key({ concurrency: 3 });
    const { leases, rejected } = await settle(Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).acquire(p, req())));
    expect(leases).toHaveLength(3);
    expect(rejected).toHaveLength(9);
    for (const err of rejected) expectThrottled(err, { min: 1, max: 1 });
    expect(rejected[0].message).toMatch(/Concurrency limit/);

    await leases[0].release();
    await leases[0].release();
    const next = await settle(Array.from({ length: 4 }, () => b.acquire(p, req())));
    expect(next.leases).toHaveLength(1);
    await Promise.all([...leases, ...next.leases].map((x) => x.release()));
    expect((await settle(Array.from({ length: 5 }, () => a.acquire(p, req())))).leases).toHaveLength(3);
  });

  it('a request rejected for concurrency consumes no rate, and one rejected for rate holds no slot', async () => {
    const l = await store.limiter();
    const keyId = randomUUID();
    const both = key({ rpm: 3, concurrency: 1 }, keyId);
    let admittedCount = 0;
    for (let i = 0; i < 3; i++) {
      const lease = await l.acquire(both, req());
      admittedCount++;
      // While the slot is held (and rate remains) these are turned away for concurrency; had they
      // counted against the rate, the third admission above would have failed.
      if (i < 2) for (let j = 0; j < 3; j++) expectConcurrencyRejection(await l.acquire(both, req()).catch((e: unknown) => e));
      await lease.release();
    }
    expect(admittedCount).toBe(3);
    // Now the rate is spent: these fail for rate, and must leave the slot free.
    for (let j = 0; j < 3; j++) {
      const err = await l.acquire(both, req()).catch((e: unknown) => e);
      expectThrottled(err, { min: 2, max: 60 });
      expect((err as Error).message).toMatch(/per minute/);
    }
    const sameKeyNoRate = key({ concurrency: 1 }, keyId);
    const lease = await l.acquire(sameKeyNoRate, req());
    await lease.release();
  });

  it('gives a rate slot back when its admission leaves the window', async () => {
    const l = await store.limiter({ windowMs: 1500 });
    const p = key({ rpm: 2 });
    expect(await admitted(l, p)).toBe(true);
    expect(await admitted(l, p)).toBe(true);
    const err = await l.acquire(p, req()).catch((e: unknown) => e);
    expectThrottled(err, { min: 1, max: 2 });
    await until(() => admitted(l, p));
  });

  it('keeps the slot of a long request alive with heartbeats', async () => {
    const l = await store.limiter({ leaseTtlMs: 900 });
    const p = key({ concurrency: 1 });
    const lease = await l.acquire(p, req());
    await new Promise((r) => setTimeout(r, 2500)); // well past the TTL; heartbeats every 300 ms
    expectThrottled(await l.acquire(p, req()).catch((e: unknown) => e));
    await lease.release();
    expect(await admitted(l, p)).toBe(true);
  });

  it("frees a dead holder's slot after the lease TTL (no heartbeat, no release)", async () => {
    const dying = await store.limiter({ leaseTtlMs: 800 });
    const p = key({ concurrency: 1 });
    await dying.acquire(p, req());
    await dying.close(); // heartbeats stop; the slot is not released, as when a replica crashes
    const survivor = await store.replica(dying, { leaseTtlMs: 800 });
    expectThrottled(await survivor.acquire(p, req()).catch((e: unknown) => e));
    await until(() => admitted(survivor, p));
  });
});

describe('RedisKeyLimiter when Redis cannot be reached', () => {
  it('fails closed with 503 limits_unavailable for limited keys, admits unlimited ones, and is not ready', async () => {
    const limiter = track(
      new RedisKeyLimiter(connectRedisForLimits(`redis://127.0.0.1:${await freePort()}`), { keyPrefix: `${uniqueName('limits')}:` }),
    );
    const err = await limiter.acquire(key({ rpm: 5 }), req()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ status: 503, code: 'limits_unavailable', retryAfter: 1 });
    await expect(limiter.acquire(key({}), req())).resolves.toBe(NO_LEASE);
    await expect(limiter.checkReady()).rejects.toThrow(/redis/);
  });

  it('a release that cannot reach Redis resolves anyway (the slot expires by its TTL)', async () => {
    const limiter = await readyRedisLimiter(`${uniqueName('limits')}:`);
    const lease = await limiter.acquire(key({ concurrency: 1 }), req());
    await limiter.close();
    await expect(lease.release()).resolves.toBeUndefined();
  });
});
