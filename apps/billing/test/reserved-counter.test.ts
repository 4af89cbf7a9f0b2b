/**
 * The reservation counter (accounts.reserved_micros, kept by triggers on holds) against real Postgres
 * with a wide pool, so statements really run concurrently: hundreds of concurrent holds never
 * overdraw; a storm of holds, releases, single and batched settlements (each delivered twice),
 * abandoned holds and sweeps keeps the counter equal to the holds in every snapshot, never reserves
 * beyond the balance, runs the account dry without a micro-dollar lost, and settles each request once.
 */
import { sweepExpiredHolds } from '../src/domain/hold-sweeper';
import { startHarness, usageEvent, type Harness } from './harness';
import { readMoney, runStorm } from './storm';

const TTL_MS = 2_000;
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ holdTtlMs: TTL_MS, poolSize: 24 });
});
afterAll(() => h.close());

test('300 concurrent holds on a balance that fits 100 grant exactly 100', async () => {
  const acc = await h.domain.billing.createAccount('wide-race', 100_000);
  const results = await Promise.allSettled(
    Array.from({ length: 300 }, (_, i) =>
      h.domain.billing.placeHold({ request_id: `wide-${i}`, account_id: acc.id, key_id: 'k', amount_micros: 1_000 }),
    ),
  );
  expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(100);
  for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ status: 402 });
  expect(await readMoney(h.ds, acc.id)).toEqual({ balance: 100_000, reserved: 100_000, held: 100_000, holds: 100 });
});

test('a storm of place, release, settle (single and batch, twice each), abandon and sweep stays exact', async () => {
  const funded = 200_000;
  const acc = await h.domain.billing.createAccount('storm', funded);
  const storm = await runStorm(h.domain, h.ds, { accountId: acc.id, workers: 40, rounds: 30 });

  expect(storm.violations).toEqual([]);
  expect(storm.samples).toBeGreaterThan(0);
  expect(storm.placed).toBeGreaterThan(0);
  expect(storm.refused).toBeGreaterThan(0); // the account ran dry (and abandoned holds blocked money until they expired)
  expect(storm.settled.size).toBeGreaterThan(0);

  // Abandoned holds give their money back once expired and swept.
  await new Promise((r) => setTimeout(r, TTL_MS + 100));
  await sweepExpiredHolds(h.ds);
  const totalCost = [...storm.settled.values()].reduce((a, b) => a + b, 0);
  expect(await readMoney(h.ds, acc.id)).toEqual({ balance: funded - totalCost, reserved: 0, held: 0, holds: 0 });

  const rows: Array<{ request_id: string; cost: string; charged: string }> = await h.ds.query(
    `SELECT request_id, cost_micros::text AS cost, charged_micros::text AS charged FROM billing.ledger_entries WHERE account_id = $1`,
    [acc.id],
  );
  expect(rows).toHaveLength(storm.settled.size);
  expect(new Set(rows.map((r) => r.request_id))).toEqual(new Set(storm.settled.keys()));
  for (const r of rows) {
    expect(Number(r.cost)).toBe(storm.settled.get(r.request_id));
    expect(r.charged).toBe(r.cost); // never clamped: every charge was covered by its hold
  }
  expect(await h.domain.billing.getAccount(acc.id)).toMatchObject({ reserved_usd: 0 });
});

test('a release and a settlement racing for the same hold return it once', async () => {
  const acc = await h.domain.billing.createAccount('race-release-settle', 1_000_000);
  for (let i = 0; i < 30; i++) {
    const request_id = `rs-${i}`;
    const { hold_id } = await h.domain.billing.placeHold({ request_id, account_id: acc.id, key_id: 'k', amount_micros: 10_000 });
    const ev = usageEvent(acc.id, { request_id, hold_id, cost_micros: 100 });
    await Promise.all([
      h.domain.billing.releaseHold(hold_id),
      h.domain.settler.handle(ev),
      h.domain.billing.releaseHold(hold_id),
      h.domain.settler.handleBatch([ev]),
    ]);
  }
  expect(await readMoney(h.ds, acc.id)).toEqual({ balance: 1_000_000 - 30 * 100, reserved: 0, held: 0, holds: 0 });
});

test('the same request settled concurrently through both paths, even under different accounts, lands once', async () => {
  const a = await h.domain.billing.createAccount('dup-a', 1_000_000);
  const b = await h.domain.billing.createAccount('dup-b', 1_000_000);
  for (let i = 0; i < 40; i++) {
    const ev = usageEvent(a.id, { request_id: `dup-${i}`, cost_micros: 1_000 });
    const evB = { ...ev, account_id: b.id, event_id: `${ev.event_id}-b` };
    const filler = usageEvent(a.id, { request_id: `filler-${i}`, cost_micros: 1 });
    const deliveries = [
      () => h.domain.settler.handle(ev),
      () => h.domain.settler.handleBatch([evB, filler]).then((o) => o[0]),
      () => h.domain.settler.handle(evB),
      () => h.domain.settler.handleBatch([ev]).then((o) => o[0]),
    ];
    const results = await Promise.allSettled(deliveries.map((d) => d()));
    const outcomes: string[] = [];
    for (const [n, r] of results.entries()) {
      if (r.status === 'fulfilled') outcomes.push(r.value);
      else {
        // A batch that lost the race under the other account rolls back; its redelivery finds the entry.
        expect(String(r.reason)).toContain('rolled back for redelivery');
        outcomes.push(await deliveries[n]());
      }
    }
    expect(outcomes.filter((o) => o === 'settled')).toHaveLength(1);
  }
  const [{ entries, charged }] = await h.ds.query(
    `SELECT count(*)::int AS entries, SUM(charged_micros)::text AS charged FROM billing.ledger_entries WHERE request_id LIKE 'dup-%'`,
  );
  expect(entries).toBe(40);
  expect(Number(charged)).toBe(40 * 1_000);
  const [ma, mb] = [await readMoney(h.ds, a.id), await readMoney(h.ds, b.id)];
  expect(2_000_000 - ma.balance - mb.balance).toBe(40 * 1_000 + 40 * 1); // the dup entries plus one filler each
});
