/**
 * Expired holds give their money back: reads stop counting them at once, the sweep deletes them and
 * lowers the counter (exactly once even when replicas sweep together), the periodic sweeper does it
 * on its own, and unexpired holds are never touched.
 */
import { createBillingDomain } from '../src';
import { sweepExpiredHolds } from '../src/domain/hold-sweeper';
import { logger, startHarness, waitFor, type Harness } from './harness';
import { readMoney } from './storm';

const TTL_MS = 300;
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ holdTtlMs: TTL_MS });
});
afterAll(() => h.close());

const hold = (account_id: string, amount_micros: number, request_id: string) =>
  h.domain.billing.placeHold({ request_id, account_id, key_id: 'k', amount_micros });

/** Moves a hold's expiry far into the future (as if placed with a long TTL). */
const keepAlive = (holdId: string) => h.ds.query(`UPDATE billing.holds SET expires_at = now() + interval '1 hour' WHERE id = $1`, [holdId]);

test('an expired hold stops counting at once and is swept back exactly once, however many sweep together', async () => {
  const a = await h.domain.billing.createAccount('sweep-a', 10_000);
  const b = await h.domain.billing.createAccount('sweep-b', 10_000);
  await hold(a.id, 3_000, 'sa-1');
  await hold(a.id, 2_000, 'sa-2');
  await hold(b.id, 4_000, 'sb-1');
  const live = await hold(a.id, 1_000, 'sa-live');
  await keepAlive(live.hold_id);
  await new Promise((r) => setTimeout(r, TTL_MS + 100));

  // Not swept yet: the rows and the counter still hold the money, but reads already leave it out.
  expect(await readMoney(h.ds, a.id)).toMatchObject({ reserved: 6_000, held: 6_000, holds: 3 });
  expect(await h.domain.billing.getAccount(a.id)).toMatchObject({ reserved_usd: 0.001 });
  expect((await h.domain.billing.quota(b.id)).reserved_micros).toBe(0);

  // Five replicas sweeping at once: between them, each expired hold is deleted once.
  const sweeps = await Promise.all(Array.from({ length: 5 }, () => sweepExpiredHolds(h.ds)));
  expect(sweeps.reduce((n, s) => n + s.holds, 0)).toBe(3);
  expect(sweeps.reduce((n, s) => n + s.micros, 0)).toBe(9_000);

  expect(await readMoney(h.ds, a.id)).toEqual({ balance: 10_000, reserved: 1_000, held: 1_000, holds: 1 });
  expect(await readMoney(h.ds, b.id)).toEqual({ balance: 10_000, reserved: 0, held: 0, holds: 0 });
  expect(await sweepExpiredHolds(h.ds, a.id)).toEqual({ holds: 0, micros: 0 });
});

test('sweeping one account leaves the others alone', async () => {
  const a = await h.domain.billing.createAccount('one-a', 5_000);
  const b = await h.domain.billing.createAccount('one-b', 5_000);
  await hold(a.id, 5_000, 'one-a-1');
  await hold(b.id, 5_000, 'one-b-1');
  await new Promise((r) => setTimeout(r, TTL_MS + 100));
  expect(await sweepExpiredHolds(h.ds, a.id)).toEqual({ holds: 1, micros: 5_000 });
  expect(await readMoney(h.ds, a.id)).toMatchObject({ reserved: 0, holds: 0 });
  expect(await readMoney(h.ds, b.id)).toMatchObject({ reserved: 5_000, holds: 1 });
});

test('a hold refused for money held by expired holds reclaims them on the spot', async () => {
  const acc = await h.domain.billing.createAccount('reclaim', 5_000);
  await hold(acc.id, 5_000, 'reclaim-1');
  await expect(hold(acc.id, 1, 'reclaim-2')).rejects.toMatchObject({ status: 402 });
  await new Promise((r) => setTimeout(r, TTL_MS + 100));
  await expect(hold(acc.id, 5_000, 'reclaim-3')).resolves.toHaveProperty('hold_id');
  expect(await readMoney(h.ds, acc.id)).toEqual({ balance: 5_000, reserved: 5_000, held: 5_000, holds: 1 });
});

test('the periodic sweeper returns expired money without anyone asking, and stops cleanly', async () => {
  const domain = createBillingDomain({ dataSource: h.ds, bus: h.bus, logger, holdTtlMs: TTL_MS, sweepIntervalMs: 50 });
  const acc = await domain.billing.createAccount('periodic', 7_000);
  await domain.billing.placeHold({ request_id: 'periodic-1', account_id: acc.id, key_id: 'k', amount_micros: 7_000 });
  await domain.start();
  try {
    await waitFor('the sweeper', async () => (await readMoney(h.ds, acc.id)).holds === 0, 10_000);
    expect(await readMoney(h.ds, acc.id)).toEqual({ balance: 7_000, reserved: 0, held: 0, holds: 0 });
  } finally {
    await domain.stop();
  }
});
