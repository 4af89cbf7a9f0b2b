/**
 * The reconciliation job proves the copy of the money in Redis agrees with the ledger: a copy left
 * behind by a lost update is brought up to date; a copy that disagrees at the same version, or whose
 * holds do not add up, is counted as a mismatch and dropped (the next admission reloads it); a copy of
 * an account the ledger does not know is another deployment's, and is left alone.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger, metricsRegistry } from '@unigate/platform';
import { redisUrl, uniqueName } from '@unigate/testing';
import Redis from 'ioredis';
import { Reconciler } from '../src';
import { AccountService } from '../src/domain/accounts';
import { connectRedisForReservations, RedisReservations } from '../src/reservations';
import { hold, logger, readMoney, startHarness, usageEvent, waitFor, type Harness } from './harness';

let h: Harness;
let raw: Redis;
beforeAll(async () => {
  h = await startHarness({ mode: 'redis' });
  raw = new Redis(redisUrl());
});
afterAll(async () => {
  raw.disconnect();
  await h.close();
});

/** The raw key of an account's money hash (redis-reservation-scripts.ts), found by scanning. */
async function moneyKey(accountId: string): Promise<string> {
  const [, keys] = await raw.scan('0', 'MATCH', `*{a:${accountId}}:money`, 'COUNT', 10_000);
  expect(keys).toHaveLength(1);
  return keys[0];
}

async function mismatches(kind: string): Promise<number> {
  const metric = await metricsRegistry.getSingleMetric('unigate_billing_reconcile_mismatches_total')!.get();
  return metric.values.find((v) => v.labels.kind === kind)?.value ?? 0;
}

test('agreeing copies are left alone', async () => {
  const acc = await h.domain.billing.createAccount('agree', 50_000);
  await hold(h, acc.id, 1_000);
  const report = await h.domain.reconcile();
  expect(report.mismatched).toBe(0);
  expect(await readMoney(h, acc.id)).toEqual({ balance: 50_000, copy: 50_000, reserved: 1_000 });
});

test('a copy behind the ledger (a lost update) gets the ledger’s balance', async () => {
  const acc = await h.domain.billing.createAccount('behind', 50_000);
  await hold(h, acc.id, 1_000);
  // The ledger changes without telling Redis, as when billing dies between commit and push.
  await h.ds.query(`UPDATE billing.accounts SET balance_micros = 42000 WHERE id = $1`, [acc.id]);
  const report = await h.domain.reconcile();
  expect(report.refreshed).toBeGreaterThanOrEqual(1);
  expect(await readMoney(h, acc.id)).toEqual({ balance: 42_000, copy: 42_000, reserved: 1_000 });
});

test('a billing process that starts repairs a copy left behind at once, not after an interval', async () => {
  const acc = await h.domain.billing.createAccount('behind-at-start', 50_000);
  await hold(h, acc.id, 1_000);
  await h.ds.query(`UPDATE billing.accounts SET balance_micros = 41000 WHERE id = $1`, [acc.id]);
  const reconciler = new Reconciler(new AccountService(h.ds), h.redis!, logger);
  reconciler.start(3_600_000);
  try {
    await waitFor('the first pass', async () => (await readMoney(h, acc.id)).copy === 41_000, 10_000);
  } finally {
    await reconciler.stop();
  }
});

test('a copy that disagrees at the same version is a mismatch: counted, dropped, and reloaded on next use', async () => {
  const acc = await h.domain.billing.createAccount('corrupt', 50_000);
  await hold(h, acc.id, 1_000);
  const before = await mismatches('balance');
  await raw.hset(await moneyKey(acc.id), 'balance', '999999');
  const report = await h.domain.reconcile();
  expect(report.mismatched).toBeGreaterThanOrEqual(1);
  expect(await mismatches('balance')).toBe(before + 1);
  expect(await h.redis!.read(acc.id)).toBeNull();
  // The next admission reloads from the ledger: only the ledger's 50 000 are there to hold.
  await expect(hold(h, acc.id, 50_001)).rejects.toMatchObject({ status: 402 });
  await expect(hold(h, acc.id, 50_000)).resolves.toMatchObject({ holdId: expect.any(String) });
});

test('reservations that do not add up to the holds are a mismatch too', async () => {
  const acc = await h.domain.billing.createAccount('reserved', 50_000);
  await hold(h, acc.id, 2_000, `req_${randomUUID()}`);
  const before = await mismatches('reserved');
  await raw.hincrby(await moneyKey(acc.id), 'reserved', 5);
  await h.domain.reconcile();
  expect(await mismatches('reserved')).toBe(before + 1);
  expect(await h.redis!.read(acc.id)).toBeNull();
});

test('a settlement between the two reads of a pass is not taken for a disagreement', async () => {
  const acc = await h.domain.billing.createAccount('racing', 50_000);
  await hold(h, acc.id, 1_000); // loads the copy into Redis
  const before = await mismatches('version_ahead');
  let ledgerRead = () => {};
  const ledgerWasRead = new Promise<void>((resolve) => (ledgerRead = resolve));
  const accounts = new AccountService(h.ds);
  const money = accounts.money.bind(accounts);
  accounts.money = async (id) => {
    const m = await money(id);
    if (id === acc.id) ledgerRead();
    return m;
  };
  // The interleaving that fooled the job when it read both at once: the ledger read, then a
  // settlement (ledger, then Redis), then the copy, one version ahead of what the ledger said.
  const redis = Object.create(h.redis!) as RedisReservations;
  let settled = false;
  redis.read = async (id) => {
    if (id === acc.id && !settled) {
      settled = true;
      await Promise.race([ledgerWasRead, sleep(300)]);
      expect(await h.domain.settle(usageEvent(acc.id, { cost_micros: 700 }))).toBe('settled');
    }
    return h.redis!.read(id);
  };
  await new Reconciler(accounts, redis, logger).run();
  expect(settled).toBe(true);
  expect(await mismatches('version_ahead')).toBe(before);
  expect(await readMoney(h, acc.id)).toEqual({ balance: 49_300, copy: 49_300, reserved: 1_000 });
});

test('a copy of an account this ledger does not know is another deployment’s: counted, warned once a pass, never dropped', async () => {
  // Another deployment on the same Redis, under its own prefix and under this deployment's: either
  // way its accounts are not in this ledger, and dropping their copies would make it forget the holds
  // of its calls in flight.
  const otherPrefix = `${uniqueName('other')}:`;
  const other = new RedisReservations(connectRedisForReservations(redisUrl()), { keyPrefix: otherPrefix });
  const strangers = [randomUUID(), randomUUID()];
  const copy = ['balance', 5_000, 'version', 1, 'reserved', 0];
  const lines: Array<{ level: number; msg: string; count?: number; sample?: string[] }> = [];
  const recording = createLogger('reconciler-test', 'warn', { write: (line: string) => void lines.push(JSON.parse(line)) });
  try {
    await raw.hset(`${otherPrefix}{a:${strangers[0]}}:money`, ...copy);
    const before = await mismatches('unknown_account');
    let report = await new Reconciler(new AccountService(h.ds), h.redis!, recording).run();
    expect(report.unknown).toBe(0);
    expect(await other.read(strangers[0])).toMatchObject({ balance_micros: 5_000 });
    expect(await mismatches('unknown_account')).toBe(before);
    expect(lines).toHaveLength(0);

    const known = await h.domain.billing.createAccount('prefix', 1_000);
    await hold(h, known.id, 1); // loads its copy: its key shows this deployment's prefix
    const ownPrefix = (await moneyKey(known.id)).replace(`{a:${known.id}}:money`, '');
    for (const stranger of strangers) await raw.hset(`${ownPrefix}{a:${stranger}}:money`, ...copy);
    report = await new Reconciler(new AccountService(h.ds), h.redis!, recording).run();
    expect(report.unknown).toBe(2);
    expect(report.mismatched).toBe(0);
    expect(await mismatches('unknown_account')).toBe(before + 2);
    for (const stranger of strangers) expect(await h.redis!.read(stranger)).toMatchObject({ balance_micros: 5_000 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ count: 2, msg: expect.stringContaining('UNIGATE_REDIS_KEY_PREFIX') });
    expect([...lines[0].sample!].sort()).toEqual([...strangers].sort());
  } finally {
    for (const stranger of strangers) await h.redis!.forget(stranger);
    await other.close();
  }
});
