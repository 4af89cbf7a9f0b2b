/** Holds against real Postgres: 402 before overspending, release, expiry, idempotency, concurrency. */
import { GatewayError } from '@unigate/contracts';
import { startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ holdTtlMs: 1_000 });
});
afterAll(() => h.close());

const hold = (account_id: string, amount_micros: number, request_id = `req_${Math.random().toString(36).slice(2)}`) =>
  h.domain.billing.placeHold({ request_id, account_id, key_id: 'key_1', amount_micros });

test('a hold reserves money; one that does not fit is a 402 with the amounts; release gives it back', async () => {
  const acc = await h.domain.billing.createAccount('holds', 1_000_000);
  const first = await hold(acc.id, 600_000);
  expect((await h.domain.billing.getAccount(acc.id)).reserved_usd).toBe(0.6);

  const err = await hold(acc.id, 500_000).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(GatewayError);
  expect((err as GatewayError).status).toBe(402);
  expect((err as GatewayError).code).toBe('insufficient_balance');
  expect((err as GatewayError).message).toContain('$0.500000');
  expect((err as GatewayError).message).toContain('$0.400000');

  await h.domain.billing.releaseHold(first.hold_id);
  await h.domain.billing.releaseHold(first.hold_id); // idempotent
  const view = await h.domain.billing.getAccount(acc.id);
  expect(view).toEqual({ id: acc.id, name: 'holds', balance_usd: 1, reserved_usd: 0 });
  await expect(hold(acc.id, 1_000_000)).resolves.toHaveProperty('hold_id');
});

test('placing the hold of one request twice returns the same hold and reserves once', async () => {
  const acc = await h.domain.billing.createAccount('idem-hold', 1_000);
  const a = await hold(acc.id, 700, 'req_same');
  const b = await hold(acc.id, 700, 'req_same');
  expect(b.hold_id).toBe(a.hold_id);
  expect((await h.domain.billing.getAccount(acc.id)).reserved_usd).toBe(0.0007);
});

test('an expired hold stops counting, so a dead owner cannot strand the money', async () => {
  const acc = await h.domain.billing.createAccount('expiry', 1_000);
  await hold(acc.id, 1_000);
  await expect(hold(acc.id, 1)).rejects.toMatchObject({ status: 402 });
  await new Promise((r) => setTimeout(r, 1_200)); // the harness TTL is 1 s
  await expect(hold(acc.id, 1_000)).resolves.toHaveProperty('hold_id');
});

test('unknown account is a 404 and a bad amount a 400, never a 500', async () => {
  await expect(hold('00000000-0000-4000-8000-000000000000', 1)).rejects.toMatchObject({ status: 404 });
  await expect(hold('not-a-uuid', 1)).rejects.toMatchObject({ status: 404 });
  const acc = await h.domain.billing.createAccount('bad-amount', 10);
  await expect(hold(acc.id, -1)).rejects.toMatchObject({ status: 400 });
  await expect(hold(acc.id, 1.5)).rejects.toMatchObject({ status: 400 });
});

test('30 concurrent holds on a balance that fits 7 never overdraw', async () => {
  const acc = await h.domain.billing.createAccount('race', 7_000);
  const results = await Promise.allSettled(Array.from({ length: 30 }, () => hold(acc.id, 1_000)));
  const ok = results.filter((r) => r.status === 'fulfilled');
  const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  expect(ok).toHaveLength(7);
  expect(rejected).toHaveLength(23);
  for (const r of rejected) expect(r.reason).toMatchObject({ status: 402 });
  const view = await h.domain.billing.getAccount(acc.id);
  expect(view.reserved_usd).toBe(0.007);
  expect(view.balance_usd).toBe(0.007);
});
