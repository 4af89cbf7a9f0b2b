/**
 * One behaviour table, run against both reservation stores: RedisReservations on the local Redis
 * (each test under its own key prefix) and MemoryReservations. "Replica" is a second store object on
 * the same data: another Redis connection, or — in memory, where the process is the whole store —
 * the same object. Limits (rate, concurrency) and money (holds against the balance) are checked in
 * the one atomic step; a refusal records nothing.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { GatewayError, type AccountMoney, type KeyPrincipal } from '@unigate/contracts';
import { freePort, redisUrl, uniqueName, waitFor } from '@unigate/testing';
import {
  connectRedisForReservations,
  MemoryMoney,
  MemoryReservations,
  RedisReservations,
  SHRINK_BELOW_WORST_CASES,
  type Admitted,
  type ReservationOptions,
  type Reservations,
} from '../src/reservations';
import { untilReady } from './harness';

/** The ledger these tests' stores load balances from. */
const ledger = new Map<string, AccountMoney>();
const load = async (accountId: string) => ledger.get(accountId) ?? null;
const account = (balance: number) => {
  const id = randomUUID();
  ledger.set(id, { balance_micros: balance, version: 1 });
  return id;
};

interface Store {
  open(opts?: ReservationOptions): Promise<Reservations>;
  /** Another replica on the same data as `of`. */
  replica(of: Reservations, opts?: ReservationOptions): Promise<Reservations>;
}

const opened: Reservations[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((l) => l.close()));
});
const track = <T extends Reservations>(l: T) => (opened.push(l), l);

async function readyRedis(prefix: string, opts: ReservationOptions = {}): Promise<RedisReservations> {
  const store = track(new RedisReservations(connectRedisForReservations(redisUrl()), { ...opts, keyPrefix: prefix, load }));
  await untilReady(store);
  return store;
}

const prefixes = new WeakMap<Reservations, string>();
const stores: Array<[string, () => Store]> = [
  [
    'RedisReservations',
    () => ({
      async open(opts) {
        const prefix = `${uniqueName('reservations')}:`;
        const l = await readyRedis(prefix, opts);
        prefixes.set(l, prefix);
        return l;
      },
      replica: (of, opts) => readyRedis(prefixes.get(of)!, opts),
    }),
  ],
  [
    'MemoryReservations',
    () => ({
      open: async (opts) => track(new MemoryReservations(new MemoryMoney(load), opts)),
      replica: async (of) => of,
    }),
  ],
];

const ACCT = randomUUID();
const key = (limits: { rpm?: number; concurrency?: number }, keyId: string = randomUUID(), accountId: string = ACCT): KeyPrincipal => ({
  key_id: keyId,
  account_id: accountId,
  models: [],
  rate_limit_rpm: limits.rpm ?? null,
  max_concurrency: limits.concurrency ?? null,
  tier: 'paid',
});
const req = () => `req_${randomUUID().replace(/-/g, '').slice(0, 24)}`;

/** Admits `p` for a new request with no money (limits only). */
const acquire = (l: Reservations, p: KeyPrincipal, amount = 0) => l.admit({ principal: p, request_id: req(), amount_micros: amount });

/** Every outcome of a batch: admissions of the admitted, errors of the rejected. */
async function settle(attempts: Array<Promise<Admitted>>) {
  const results = await Promise.allSettled(attempts);
  const leases = results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<Admitted>).value);
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

const admitted = (l: Reservations, p: KeyPrincipal) =>
  acquire(l, p).then(
    (lease) => lease.finish().then(() => true),
    () => false,
  );

describe.each(stores)('%s', (_name, makeStore) => {
  let store: Store;
  beforeEach(() => {
    store = makeStore();
  });

  it('admits a key without limits and without money to hold, holding nothing', async () => {
    const l = await store.open();
    const leases = await Promise.all(Array.from({ length: 50 }, () => acquire(l, key({}))));
    expect(leases.every((x) => x.holdId === null)).toBe(true);
  });

  it('admits exactly rate_limit_rpm requests of a racing burst, across replicas, and rejects the rest with Retry-After', async () => {
    const a = await store.open();
    const b = await store.replica(a);
    const p = key({ rpm: 7 });
    const { leases, rejected } = await settle(Array.from({ length: 30 }, (_, i) => acquire(i % 2 ? a : b, p)));
    expect(leases).toHaveLength(7);
    expect(rejected).toHaveLength(23);
    for (const err of rejected) expectThrottled(err, { min: 1, max: 60 });
    expect(rejected[0].message).toMatch(/7 requests per minute/);
    // Releasing does not give rate back: the window counts admissions, not requests in flight.
    await Promise.all(leases.map((x) => x.finish()));
    await expect(acquire(a, p)).rejects.toBeInstanceOf(GatewayError);
  });

  it('admits exactly max_concurrency racing requests; a release lets exactly one more in; release is idempotent', async () => {
    const a = await store.open();
    const b = await store.replica(a);
    const p = key({ concurrency: 3 });
    const { leases, rejected } = await settle(Array.from({ length: 12 }, (_, i) => acquire(i % 2 ? a : b, p)));
    expect(leases).toHaveLength(3);
    expect(rejected).toHaveLength(9);
    for (const err of rejected) expectThrottled(err, { min: 1, max: 1 });
    expect(rejected[0].message).toMatch(/Concurrency limit/);

    await leases[0].finish();
    await leases[0].finish();
    const next = await settle(Array.from({ length: 4 }, () => acquire(b, p)));
    expect(next.leases).toHaveLength(1);
    await Promise.all([...leases, ...next.leases].map((x) => x.finish()));
    expect((await settle(Array.from({ length: 5 }, () => acquire(a, p)))).leases).toHaveLength(3);
  });

  it('a request rejected for concurrency consumes no rate, and one rejected for rate holds no slot', async () => {
    const l = await store.open();
    const keyId = randomUUID();
    const both = key({ rpm: 3, concurrency: 1 }, keyId);
    let admittedCount = 0;
    for (let i = 0; i < 3; i++) {
      const lease = await acquire(l, both);
      admittedCount++;
      // While the slot is held (and rate remains) these are turned away for concurrency; had they
      // counted against the rate, the third admission above would have failed.
      if (i < 2) for (let j = 0; j < 3; j++) expectConcurrencyRejection(await acquire(l, both).catch((e: unknown) => e));
      await lease.finish();
    }
    expect(admittedCount).toBe(3);
    // Now the rate is spent: these fail for rate, and must leave the slot free.
    for (let j = 0; j < 3; j++) {
      const err = await acquire(l, both).catch((e: unknown) => e);
      expectThrottled(err, { min: 2, max: 60 });
      expect((err as Error).message).toMatch(/per minute/);
    }
    const sameKeyNoRate = key({ concurrency: 1 }, keyId);
    const lease = await acquire(l, sameKeyNoRate);
    await lease.finish();
  });

  it('gives a rate slot back when its admission leaves the window', async () => {
    const l = await store.open({ windowMs: 1500 });
    const p = key({ rpm: 2 });
    expect(await admitted(l, p)).toBe(true);
    expect(await admitted(l, p)).toBe(true);
    const err = await acquire(l, p).catch((e: unknown) => e);
    expectThrottled(err, { min: 1, max: 2 });
    await waitFor('a request to be admitted again', () => admitted(l, p), 10_000, 50);
  });

  it('keeps the slot of a long request alive with heartbeats', async () => {
    const l = await store.open({ leaseTtlMs: 900 });
    const p = key({ concurrency: 1 });
    const lease = await acquire(l, p);
    await new Promise((r) => setTimeout(r, 2500)); // well past the TTL; heartbeats every 300 ms
    expectThrottled(await acquire(l, p).catch((e: unknown) => e));
    await lease.finish();
    expect(await admitted(l, p)).toBe(true);
  });

  it('holds money; one that does not fit is a 402 with the amounts; a refund gives it back', async () => {
    const l = await store.open();
    const acct = account(1_000_000);
    const first = await acquire(l, key({}, randomUUID(), acct), 600_000);
    expect(first.holdId).toEqual(expect.any(String));
    const err = (await acquire(l, key({}, randomUUID(), acct), 500_000).catch((e: unknown) => e)) as GatewayError;
    expect(err).toBeInstanceOf(GatewayError);
    expect([err.status, err.code]).toEqual([402, 'insufficient_balance']);
    expect(err.message).toContain('$0.500000');
    expect(err.message).toContain('$0.400000');
    await first.refund();
    await first.refund(); // idempotent
    await expect(acquire(l, key({}, randomUUID(), acct), 1_000_000)).resolves.toMatchObject({ holdId: expect.any(String) });
  });

  it('holds once for the same request, however often it is admitted', async () => {
    const l = await store.open();
    const acct = account(1_000);
    const p = key({}, randomUUID(), acct);
    await l.admit({ principal: p, request_id: 'same', amount_micros: 700 });
    await l.admit({ principal: p, request_id: 'same', amount_micros: 700 });
    await expect(acquire(l, p, 300)).resolves.toMatchObject({ holdId: expect.any(String) });
    await expect(acquire(l, p, 1)).rejects.toMatchObject({ status: 402 });
  });

  it('300 racing admissions across replicas on a balance that fits 100 hold exactly 100: no overspend', async () => {
    const a = await store.open();
    const b = await store.replica(a);
    const acct = account(100_000);
    const { leases, rejected } = await settle(
      Array.from({ length: 300 }, (_, i) => acquire(i % 2 ? a : b, key({}, randomUUID(), acct), 1_000)),
    );
    expect(leases).toHaveLength(100);
    expect(rejected).toHaveLength(200);
    for (const err of rejected) expect(err).toMatchObject({ status: 402 });
    // Refunding 10 lets exactly 10 more in.
    await Promise.all(leases.slice(0, 10).map((x) => x.refund()));
    expect((await settle(Array.from({ length: 30 }, () => acquire(a, key({}, randomUUID(), acct), 1_000)))).leases).toHaveLength(10);
  });

  it('a refusal for money takes no rate and no slot; a refusal for a limit holds no money', async () => {
    const l = await store.open();
    const acct = account(1_000);
    const p = key({ rpm: 2, concurrency: 1 }, randomUUID(), acct);
    for (let i = 0; i < 3; i++) expect(await acquire(l, p, 5_000).catch((e: unknown) => e)).toMatchObject({ status: 402 });
    const held = await acquire(l, p, 600); // the slot and both rate admissions were left free
    expectConcurrencyRejection(await acquire(l, p, 100).catch((e: unknown) => e));
    await held.finish();
    await held.refund();
    await expect(acquire(l, p, 1_000)).resolves.toMatchObject({ holdId: expect.any(String) }); // all 1 000 were available
    expectThrottled(await acquire(l, key({ rpm: 2 }, p.key_id, acct), 1).catch((e: unknown) => e));
  });

  it('an expired hold stops counting, so a dead owner cannot strand the money', async () => {
    const l = await store.open();
    const acct = account(1_000);
    await l.admit({ principal: key({}, randomUUID(), acct), request_id: req(), amount_micros: 1_000, ttl_seconds: 1 });
    await expect(acquire(l, key({}, randomUUID(), acct), 1)).rejects.toMatchObject({ status: 402 });
    await new Promise((r) => setTimeout(r, 1_100));
    await expect(acquire(l, key({}, randomUUID(), acct), 1_000)).resolves.toMatchObject({ holdId: expect.any(String) });
  });

  it('keeps the hold of a call still running past its TTL, so its money cannot be spent again; once the call is over it expires', async () => {
    const l = await store.open({ leaseTtlMs: 750 }); // keep-alives every 250 ms
    const acct = account(1_000);
    const running = await l.admit({ principal: key({}, randomUUID(), acct), request_id: req(), amount_micros: 1_000, ttl_seconds: 1 });
    await new Promise((r) => setTimeout(r, 2_500)); // two and a half TTLs
    await expect(acquire(l, key({}, randomUUID(), acct), 1)).rejects.toMatchObject({ status: 402 });
    await running.finish();
    await new Promise((r) => setTimeout(r, 1_100));
    await expect(acquire(l, key({}, randomUUID(), acct), 1_000)).resolves.toMatchObject({ holdId: expect.any(String) });
  });

  it("a running call's hold lives one lease TTL past its process's last keep-alive: a dead process's money comes back within it", async () => {
    const dying = await store.open({ leaseTtlMs: 900 });
    const survivor = await store.replica(dying, { leaseTtlMs: 900 });
    const acct = account(1_000);
    await dying.admit({ principal: key({}, randomUUID(), acct), request_id: req(), amount_micros: 1_000 });
    await new Promise((r) => setTimeout(r, 2_000)); // over two lease TTLs: kept alive while its process lives
    await expect(acquire(survivor, key({}, randomUUID(), acct), 1)).rejects.toMatchObject({ status: 402 });
    await dying.close(); // keep-alives stop, as when the process crashes
    const diedAt = performance.now();
    await waitFor(
      "the dead process's hold to come back",
      () =>
        acquire(survivor, key({}, randomUUID(), acct), 1_000).then(
          () => true,
          () => false,
        ),
      10_000,
      50,
    );
    expect(performance.now() - diedAt).toBeLessThan(5_000); // not the 10 minutes a finished call's hold waits
  });

  it("a finished call's hold waits for billing its whole TTL (10 minutes), not a lease TTL", async () => {
    const l = await store.open({ leaseTtlMs: 600 });
    const acct = account(1_000);
    const done = await l.admit({ principal: key({}, randomUUID(), acct), request_id: req(), amount_micros: 1_000 });
    await done.finish();
    await new Promise((r) => setTimeout(r, 1_500)); // two and a half lease TTLs
    await expect(acquire(l, key({}, randomUUID(), acct), 1)).rejects.toMatchObject({ status: 402 });
  });

  it("a finished call's hold shrinks to its cost: the rest is available at once; it never grows, and 0 gives it all back", async () => {
    const l = await store.open();
    const acct = account(10_000);
    const p = key({}, randomUUID(), acct);
    const first = await acquire(l, p, 6_000);
    await expect(acquire(l, p, 6_000)).rejects.toMatchObject({ status: 402, message: expect.stringMatching(/4000|0\.004/) });
    await first.shrinkTo(1_000);
    const second = await acquire(l, p, 6_000); // 10 000 - 1 000 held
    await first.shrinkTo(5_000); // not grown back
    await expect(acquire(l, p, 3_001)).rejects.toMatchObject({ status: 402 });
    await second.shrinkTo(0);
    await first.shrinkTo(0);
    await expect(acquire(l, p, 10_000)).resolves.toMatchObject({ holdId: expect.any(String) });
  });

  it('an account the ledger does not know is a 404', async () => {
    const l = await store.open();
    await expect(acquire(l, key({}, randomUUID(), randomUUID()), 10)).rejects.toMatchObject({ status: 404 });
  });

  it("frees a dead holder's slot after the lease TTL (no heartbeat, no release)", async () => {
    const dying = await store.open({ leaseTtlMs: 800 });
    const p = key({ concurrency: 1 });
    await acquire(dying, p);
    await dying.close(); // heartbeats stop; the slot is not released, as when a replica crashes
    const survivor = await store.replica(dying, { leaseTtlMs: 800 });
    expectThrottled(await acquire(survivor, p).catch((e: unknown) => e));
    await waitFor('a request to be admitted on the survivor', () => admitted(survivor, p), 10_000, 50);
  });
});

describe('RedisReservations and the ledger', () => {
  it('loads a balance it lacks from the ledger, and keeps the newest version the ledger pushes', async () => {
    const store = await readyRedis(`${uniqueName('res')}:`);
    const acct = account(5_000);
    await acquire(store, key({}, randomUUID(), acct), 1_000);
    expect(await store.read(acct)).toMatchObject({ balance_micros: 5_000, version: 1, reserved_micros: 1_000, held_micros: 1_000 });
    await store.applyLedger(acct, { balance_micros: 4_000, version: 3 });
    await store.applyLedger(acct, { balance_micros: 4_500, version: 2 }); // older, arriving late: ignored
    expect(await store.read(acct)).toMatchObject({ balance_micros: 4_000, version: 3, reserved_micros: 1_000 });
    // An account Redis does not hold is not created by a push: the next admission loads it.
    const other = account(10);
    await store.applyLedger(other, { balance_micros: 10, version: 1 });
    expect(await store.read(other)).toBeNull();
  });
});

describe('RedisReservations: a shrunk hold and its settlement', () => {
  it(`shrinks only the holds of an account with fewer than ${SHRINK_BELOW_WORST_CASES} such worst cases left after them: a richer one's wait for billing`, async () => {
    const store = await readyRedis(`${uniqueName('res')}:`);
    const amount = 1_000;
    const acct = account(amount * (SHRINK_BELOW_WORST_CASES + 1));
    const p = key({}, randomUUID(), acct);
    const rich = await acquire(store, p, amount); // SHRINK_BELOW_WORST_CASES worst cases left
    await rich.shrinkTo(10);
    expect(await store.read(acct)).toMatchObject({ reserved_micros: amount, held_micros: amount });
    const poorer = await acquire(store, p, amount); // one fewer
    await poorer.shrinkTo(10);
    expect(await store.read(acct)).toMatchObject({ reserved_micros: amount + 10, held_micros: amount + 10 });
  });

  it('keeps reserved equal to the live holds, whichever comes first: the shrink or the settlement that drops the hold', async () => {
    const store = await readyRedis(`${uniqueName('res')}:`);
    const acct = account(50_000);
    const p = key({}, randomUUID(), acct);
    const early = await acquire(store, p, 20_000);
    const late = await acquire(store, p, 20_000);
    await early.shrinkTo(3_000);
    expect(await store.read(acct)).toMatchObject({ reserved_micros: 23_000, held_micros: 23_000 });
    // Billing settles both (3 000 and 2 000 charged): the shrunk hold and the whole one go.
    await store.applyLedger(acct, { balance_micros: 45_000, version: 2 }, [early.holdId!, late.holdId!]);
    expect(await store.read(acct)).toMatchObject({ balance_micros: 45_000, reserved_micros: 0, held_micros: 0 });
    // The edge's shrink arriving after the settlement finds no hold and changes nothing.
    await late.shrinkTo(2_000);
    expect(await store.read(acct)).toMatchObject({ balance_micros: 45_000, reserved_micros: 0, held_micros: 0 });
  });
});

describe('RedisReservations on one connection', () => {
  const socketOf = (redis: unknown) => (redis as { stream: { write: (...args: unknown[]) => boolean } }).stream;

  it('sends an admission, and what a call gives back, at once: each is written before the caller’s turn ends', async () => {
    const redis = connectRedisForReservations(redisUrl());
    const store = track(new RedisReservations(redis, { keyPrefix: `${uniqueName('res')}:`, load }));
    await untilReady(store);
    // Little enough money that a shrink pays off (shrinkPaysOff), so every call below sends one.
    const principal = key({ concurrency: 30 }, randomUUID(), account(2_000));
    await (await store.admit({ principal, request_id: req(), amount_micros: 10 })).finish(); // scripts loaded, state in Redis
    const write = jest.spyOn(socketOf(redis), 'write');
    try {
      // The request waits on its admission: it is written before the caller's turn ends.
      const first = acquire(store, principal, 10);
      first.catch(() => undefined); // a failed expectation below must not leave it unhandled
      expect(write).toHaveBeenCalledTimes(1);
      const leases = [await first, ...(await Promise.all(Array.from({ length: 19 }, () => acquire(store, principal, 10))))];
      // Twenty slots, ten refunds and ten shrinks, each written in the caller's turn.
      write.mockClear();
      const given = leases.flatMap((lease, i) => [lease.finish(), i % 2 ? lease.refund() : lease.shrinkTo(1)]);
      expect(write).toHaveBeenCalledTimes(40);
      await Promise.all(given);
      expect(await admitted(store, principal)).toBe(true);
    } finally {
      write.mockRestore();
    }
  });

  it('gives a slot back before the caller’s turn ends: a client that already has its answer finds it free', async () => {
    const prefix = `${uniqueName('res')}:`;
    const store = await readyRedis(prefix);
    const principal = key({ concurrency: 1 });
    await (await acquire(store, principal)).finish(); // scripts loaded
    const lease = await acquire(store, principal);
    const slots = `${prefix}{a:${principal.account_id}}:k:${principal.key_id}:slots`;
    void lease.finish();
    // The edge writes the answer right after this, in the same turn. redis-cli runs while this process
    // is blocked in execFileSync: only what finish() has already written can have reached Redis.
    const held = execFileSync('redis-cli', ['-u', redisUrl(), 'ZCARD', slots], { encoding: 'utf8' }).trim();
    expect(held).toBe('0');
  });
});

describe('RedisReservations when Redis cannot be reached', () => {
  it('fails closed with 503 limits_unavailable for limited keys and holds, admits the rest, and is not ready', async () => {
    const store = track(
      new RedisReservations(connectRedisForReservations(`redis://127.0.0.1:${await freePort()}`), {
        keyPrefix: `${uniqueName('res')}:`,
        load,
      }),
    );
    for (const attempt of [acquire(store, key({ rpm: 5 })), acquire(store, key({}, randomUUID(), account(1_000)), 10)]) {
      const err = await attempt.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GatewayError);
      expect(err).toMatchObject({ status: 503, code: 'limits_unavailable', retryAfter: 1 });
    }
    await expect(acquire(store, key({}))).resolves.toMatchObject({ holdId: null });
    await expect(store.checkReady()).rejects.toThrow(/redis/);
  });

  it('an admission that timed out on a hung Redis holds nothing once Redis catches up and runs it', async () => {
    // A hung Redis (paused, overloaded): the connection stays open and what is sent waits in it.
    const proxy = await freezableProxy(Number(new URL(redisUrl()).port || 6379));
    try {
      const prefix = `${uniqueName('res')}:`;
      const viaProxy = track(
        new RedisReservations(connectRedisForReservations(`redis://127.0.0.1:${proxy.port}`), { keyPrefix: prefix, load }),
      );
      await untilReady(viaProxy);
      const p = key({ concurrency: 1 }, randomUUID(), account(1_000));
      const first = await acquire(viaProxy, p, 10); // the account's money is now in Redis
      await first.refund();
      await first.finish();
      proxy.freeze();
      await expect(acquire(viaProxy, p, 10)).rejects.toMatchObject({ status: 503, code: 'limits_unavailable' });
      proxy.thaw();
      // The key's one slot and the whole balance are free again, not held for their TTLs (5 and 10 min).
      const direct = await readyRedis(prefix);
      await waitFor(
        'the slot and the money of the admission that timed out',
        () =>
          acquire(direct, p, 1_000).then(
            () => true,
            () => false,
          ),
        3_000,
      );
    } finally {
      await proxy.close();
    }
  });

  it('a slot or hold given back while Redis is away resolves anyway (it expires by its TTL)', async () => {
    const store = await readyRedis(`${uniqueName('res')}:`);
    const lease = await acquire(store, key({ concurrency: 1 }, randomUUID(), account(1_000)), 10);
    await store.close();
    await expect(lease.finish()).resolves.toBeUndefined();
    await expect(lease.refund()).resolves.toBeUndefined();
  });
});

/** A TCP proxy to Redis whose client-to-server bytes can be held back (freeze) and then let through (thaw). */
async function freezableProxy(target: number) {
  let frozen = false;
  const held: Array<() => void> = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = createConnection(target, '127.0.0.1');
    client.on('data', (chunk) => (frozen ? held.push(() => upstream.write(chunk)) : upstream.write(chunk)));
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
    sockets.add(client).add(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as { port: number }).port,
    freeze: () => (frozen = true),
    thaw: () => {
      frozen = false;
      for (const send of held.splice(0)) send();
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}
