/** usage.recorded settlement: one transaction, one ledger entry per request, hold released, clamped at 0. */
import { startHarness, usageEvent, balanceMicros, ledgerCount, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

test('settling takes the cost, writes one ledger entry and deletes the hold', async () => {
  const acc = await h.domain.billing.createAccount('settle', 10_000_000);
  const { hold_id } = await h.domain.billing.placeHold({ request_id: 'req-s1', account_id: acc.id, key_id: 'k', amount_micros: 5_000_000 });
  const ev = usageEvent(acc.id, { request_id: 'req-s1', hold_id, cost_micros: 1_234_567, units: { input_tokens: 100, cached_input_tokens: 40, output_tokens: 7 } });

  expect(await h.domain.settler.handle(ev)).toBe('settled');
  expect(await h.domain.billing.getAccount(acc.id)).toMatchObject({ balance_usd: 8.765433, reserved_usd: 0 });

  const usage = await h.domain.billing.listUsage(acc.id);
  expect(usage).toEqual([
    {
      id: expect.any(String),
      request_id: 'req-s1',
      model: 'gpt-test',
      kind: 'chat',
      input_tokens: 100,
      cached_input_tokens: 40,
      output_tokens: 7,
      cost_usd: 1.234567,
      cost_micros: 1_234_567,
      created_at: expect.any(String),
    },
  ]);
  const [row] = await h.ds.query(`SELECT event_id FROM billing.ledger_entries WHERE request_id = 'req-s1'`);
  expect(row.event_id).toBe(ev.event_id);
});

test('the same event (or another event for the same request) settles once', async () => {
  const acc = await h.domain.billing.createAccount('dup', 1_000_000);
  const ev = usageEvent(acc.id, { cost_micros: 300_000 });
  const outcomes = await Promise.all([h.domain.settler.handle(ev), h.domain.settler.handle(ev), h.domain.settler.handle({ ...ev, event_id: 'other' })]);
  expect(outcomes.sort()).toEqual(['duplicate', 'duplicate', 'settled']);
  expect(await ledgerCount(h.ds, acc.id)).toBe(1);
  expect(await balanceMicros(h.ds, acc.id)).toBe(700_000);
});

test('a cost above the balance empties it, never below zero, and records what was not collected', async () => {
  const acc = await h.domain.billing.createAccount('clamp', 500);
  const ev = usageEvent(acc.id, { cost_micros: 2_000 });
  expect(await h.domain.settler.handle(ev)).toBe('settled');
  expect(await balanceMicros(h.ds, acc.id)).toBe(0);
  const [row] = await h.ds.query(`SELECT cost_micros::int AS cost, charged_micros::int AS charged FROM billing.ledger_entries WHERE request_id = $1`, [ev.request_id]);
  expect(row).toEqual({ cost: 2_000, charged: 500 });
  expect(await h.domain.settler.handle(usageEvent(acc.id, { cost_micros: 10 }))).toBe('settled');
  expect(await balanceMicros(h.ds, acc.id)).toBe(0);
});

test('usage lists newest first; malformed events and unknown accounts are rejected, not retried', async () => {
  const acc = await h.domain.billing.createAccount('list', 1_000_000);
  for (const id of ['a', 'b', 'c']) {
    await h.domain.settler.handle(usageEvent(acc.id, { request_id: `list-${id}`, cost_micros: 1 }));
  }
  expect((await h.domain.billing.listUsage(acc.id)).map((u) => u.request_id)).toEqual(['list-c', 'list-b', 'list-a']);

  expect(await h.domain.settler.handle({ hello: 'world' })).toBe('rejected');
  expect(await h.domain.settler.handle(usageEvent(acc.id, { cost_micros: -5 }))).toBe('rejected');
  expect(await h.domain.settler.handle(usageEvent('00000000-0000-4000-8000-000000000000'))).toBe('rejected');
  expect(await ledgerCount(h.ds, acc.id)).toBe(3);
});
