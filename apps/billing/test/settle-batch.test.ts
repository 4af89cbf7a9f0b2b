/**
 * Batch settlement (one transaction per Kafka batch) gives exactly what settling the same events one
 * by one gives: charges clamped in delivery order, duplicates (earlier or within the batch) ignored,
 * unknown accounts and malformed events rejected in place, holds deleted, several accounts at once.
 */
import type { UsageRecorded } from '@unigate/contracts';
import { UsageSettler } from '../src';
import { hold, logger, readMoney, startHarness, usageEvent, type Harness } from './harness';

let h: Harness;
let settler: UsageSettler;
beforeAll(async () => {
  h = await startHarness({ mode: 'redis' });
  settler = new UsageSettler(h.ds, logger, (account, money, holdIds) => h.redis!.applyLedger(account, money, holdIds));
});
afterAll(() => h.close());

const entries = (accountId: string): Promise<Array<{ request_id: string; cost: string; charged: string; after: string }>> =>
  h.ds.query(
    `SELECT request_id, cost_micros::text AS cost, charged_micros::text AS charged, balance_after_micros::text AS after
     FROM billing.ledger_entries WHERE account_id = $1 ORDER BY balance_after_micros DESC, charged_micros DESC`,
    [accountId],
  );

test('a batch charges in delivery order and clamps at zero exactly as one-by-one settlement does', async () => {
  const batched = await h.domain.billing.createAccount('batched', 2_500);
  const single = await h.domain.billing.createAccount('single', 2_500);
  const costs = [1_000, 1_000, 1_000, 1_000];
  const make = (accountId: string, prefix: string) =>
    costs.map((cost_micros, i) => usageEvent(accountId, { request_id: `${prefix}-${i}`, cost_micros }));

  expect(await settler.handleBatch(make(batched.id, 'b'))).toEqual(['settled', 'settled', 'settled', 'settled']);
  for (const ev of make(single.id, 's')) expect(await settler.handle(ev)).toBe('settled');

  const strip = (rows: Awaited<ReturnType<typeof entries>>) => rows.map(({ cost, charged, after }) => ({ cost, charged, after }));
  expect(strip(await entries(batched.id))).toEqual([
    { cost: '1000', charged: '1000', after: '1500' },
    { cost: '1000', charged: '1000', after: '500' },
    { cost: '1000', charged: '500', after: '0' },
    { cost: '1000', charged: '0', after: '0' },
  ]);
  expect(strip(await entries(single.id))).toEqual(strip(await entries(batched.id)));
  expect((await readMoney(h, batched.id)).balance).toBe(0);
});

test('duplicates, unknown accounts and malformed events are reported in place; every hold of several accounts goes', async () => {
  const a = await h.domain.billing.createAccount('batch-a', 100_000);
  const b = await h.domain.billing.createAccount('batch-b', 100_000);
  const holdA = await hold(h, a.id, 20_000, 'ba-1');
  const holdA2 = await hold(h, a.id, 15_000, 'ba-2'); // two holds of one account: dropped in one call
  await hold(h, b.id, 30_000, 'bb-1');
  const earlier = usageEvent(a.id, { request_id: 'ba-0', cost_micros: 5 });
  expect(await settler.handle(earlier)).toBe('settled');

  const events: unknown[] = [
    usageEvent(a.id, { request_id: 'ba-1', hold_id: holdA.holdId, cost_micros: 7_000 }), // by hold id
    usageEvent(a.id, { request_id: 'ba-2', hold_id: holdA2.holdId, cost_micros: 1_000 }),
    { ...earlier, event_id: 'replayed' }, // settled before
    usageEvent(b.id, { request_id: 'bb-1', hold_id: null, cost_micros: 9_000 }), // hold found by request id
    { nonsense: true },
    usageEvent('00000000-0000-4000-8000-000000000000', { request_id: 'ghost' }),
    usageEvent(b.id, { request_id: 'bb-1', cost_micros: 9_000 }), // a second copy within the batch
  ];
  expect(await settler.handleBatch(events)).toEqual(['settled', 'settled', 'duplicate', 'settled', 'rejected', 'rejected', 'duplicate']);

  // The ledger and its copy in Redis agree, and every hold of the batch is gone.
  expect(await readMoney(h, a.id)).toEqual({ balance: 100_000 - 5 - 8_000, copy: 100_000 - 5 - 8_000, reserved: 0 });
  expect(await readMoney(h, b.id)).toEqual({ balance: 100_000 - 9_000, copy: 100_000 - 9_000, reserved: 0 });
  expect((await entries(a.id)).map((e) => e.request_id).sort()).toEqual(['ba-0', 'ba-1', 'ba-2']);
  expect((await entries(b.id)).map((e) => e.request_id)).toEqual(['bb-1']);

  // Delivered again as a whole: nothing changes.
  expect(await settler.handleBatch(events as UsageRecorded[])).toEqual([
    'duplicate',
    'duplicate',
    'duplicate',
    'duplicate',
    'rejected',
    'rejected',
    'duplicate',
  ]);
  expect(await readMoney(h, b.id)).toEqual({ balance: 100_000 - 9_000, copy: 100_000 - 9_000, reserved: 0 });
});

test('an entry another account wrote meanwhile for the same request rolls the whole batch back, balances included', async () => {
  const a = await h.domain.billing.createAccount('batch-race-a', 50_000);
  const b = await h.domain.billing.createAccount('batch-race-b', 50_000);
  // Another settlement (under account b) has inserted the entry of request 'race-1' and not committed
  // yet: the batch's read of known requests cannot see it, its insert waits for it and then skips it.
  const other = h.ds.createQueryRunner();
  await other.connect();
  await other.startTransaction();
  try {
    await other.query(
      `INSERT INTO billing.ledger_entries (id, account_id, request_id, event_id, key_id, model, kind, input_tokens,
         cached_input_tokens, output_tokens, units, cost_micros, charged_micros, balance_after_micros, occurred_at)
       VALUES (gen_random_uuid(), $1, 'race-1', 'race-ev', 'key_1', 'm', 'chat', 0, 0, 0, '{}', 1, 1, 0, now())`,
      [b.id],
    );
    const batch = settler.handleBatch([
      usageEvent(a.id, { request_id: 'race-0', cost_micros: 3_000 }),
      usageEvent(a.id, { request_id: 'race-1', cost_micros: 4_000 }),
    ]);
    await new Promise((r) => setTimeout(r, 200));
    await other.commitTransaction();
    await expect(batch).rejects.toThrow(/already existed under another account; rolled back/);
  } finally {
    if (other.isTransactionActive) await other.rollbackTransaction();
    await other.release();
  }
  // Nothing of the batch stayed: neither its entries nor the balance its statement had written.
  expect(await entries(a.id)).toEqual([]);
  expect((await readMoney(h, a.id)).balance).toBe(50_000);
  // Redelivered one by one (the consumer's fallback): race-1 is the other account's, race-0 is charged once.
  expect(await settler.handle(usageEvent(a.id, { request_id: 'race-0', cost_micros: 3_000 }))).toBe('settled');
  expect(await settler.handle(usageEvent(a.id, { request_id: 'race-1', cost_micros: 4_000 }))).toBe('duplicate');
  expect((await readMoney(h, a.id)).balance).toBe(47_000);
});
