/**
 * usage.recorded settlement in both billing modes: one ledger entry per request, the cost taken from
 * the balance (clamped at zero), the request's hold dropped — and, in Redis mode, the new balance
 * pushed to the copy the edges admit against.
 */
import { balanceMicros, hold, ledgerCount, startHarness, usageEvent, type Harness, type Mode } from './harness';

describe.each<Mode>(['redis', 'embedded'])('%s mode', (mode) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ mode });
  });
  afterAll(() => h.close());

  test('settling takes the cost, writes one ledger entry and drops the hold', async () => {
    const acc = await h.domain.billing.createAccount('settle', 10_000_000);
    const admitted = await hold(h, acc.id, 5_000_000, 'req-s1');
    expect(admitted.holdId).toBe('req-s1');
    expect(await h.domain.billing.getAccount(acc.id)).toMatchObject({ balance_usd: 10, reserved_usd: 5 });
    const ev = usageEvent(acc.id, {
      request_id: 'req-s1',
      hold_id: admitted.holdId,
      cost_micros: 1_234_567,
      units: { input_tokens: 100, cached_input_tokens: 40, output_tokens: 7 },
    });

    expect(await h.domain.settle(ev)).toBe('settled');
    expect(await h.domain.billing.getAccount(acc.id)).toMatchObject({ balance_usd: 8.765433, reserved_usd: 0 });
    await h.domain.flush();

    const { entries: usage } = await h.domain.billing.listUsage(acc.id);
    expect(usage).toEqual([
      {
        id: expect.any(String),
        request_id: 'req-s1',
        model: 'gpt-test',
        kind: 'chat',
        input_tokens: 100,
        cached_input_tokens: 40,
        output_tokens: 7,
        units: { input_tokens: 100, cached_input_tokens: 40, output_tokens: 7 },
        cost_usd: 1.234567,
        cost_micros: 1_234_567,
        created_at: expect.any(String),
      },
    ]);
    const [row] = await h.ds.query(`SELECT event_id FROM billing.ledger_entries WHERE request_id = 'req-s1'`);
    expect(row.event_id).toBe(ev.event_id);
    expect(await balanceMicros(h.ds, acc.id)).toBe(8_765_433);
    // Admissions now see the settled balance: 8.765433 is available, 8.765434 is not.
    await expect(hold(h, acc.id, 8_765_434)).rejects.toMatchObject({ status: 402 });
    await expect(hold(h, acc.id, 8_765_433)).resolves.toMatchObject({ holdId: expect.any(String) });
  });

  test('the same event (or another event for the same request) settles once', async () => {
    const acc = await h.domain.billing.createAccount('dup', 1_000_000);
    const ev = usageEvent(acc.id, { cost_micros: 300_000 });
    const outcomes = await Promise.all([h.domain.settle(ev), h.domain.settle(ev), h.domain.settle({ ...ev, event_id: 'other' })]);
    expect(outcomes.sort()).toEqual(['duplicate', 'duplicate', 'settled']);
    await h.domain.flush();
    expect(await ledgerCount(h.ds, acc.id)).toBe(1);
    expect(await balanceMicros(h.ds, acc.id)).toBe(700_000);
  });

  test('a cost above the balance empties it, never below zero, and records what was not collected', async () => {
    const acc = await h.domain.billing.createAccount('clamp', 500);
    const ev = usageEvent(acc.id, { cost_micros: 2_000 });
    expect(await h.domain.settle(ev)).toBe('settled');
    await h.domain.flush();
    expect(await balanceMicros(h.ds, acc.id)).toBe(0);
    const [row] = await h.ds.query(
      `SELECT cost_micros::int AS cost, charged_micros::int AS charged FROM billing.ledger_entries WHERE request_id = $1`,
      [ev.request_id],
    );
    expect(row).toEqual({ cost: 2_000, charged: 500 });
    expect(await h.domain.settle(usageEvent(acc.id, { cost_micros: 10 }))).toBe('settled');
    await h.domain.flush();
    expect(await balanceMicros(h.ds, acc.id)).toBe(0);
  });

  test('usage lists newest first; malformed events and unknown accounts are rejected, not retried', async () => {
    const acc = await h.domain.billing.createAccount('list', 1_000_000);
    for (const id of ['a', 'b', 'c']) {
      await h.domain.settle(usageEvent(acc.id, { request_id: `list-${mode}-${id}`, cost_micros: 1 }));
      // Each in its own commit, so created_at orders them.
      await h.domain.flush();
    }
    expect((await h.domain.billing.listUsage(acc.id)).entries.map((u) => u.request_id)).toEqual([
      `list-${mode}-c`,
      `list-${mode}-b`,
      `list-${mode}-a`,
    ]);

    expect(await h.domain.settle({ hello: 'world' })).toBe('rejected');
    expect(await h.domain.settle(usageEvent(acc.id, { cost_micros: -5 }))).toBe('rejected');
    expect(await h.domain.settle(usageEvent('00000000-0000-4000-8000-000000000000'))).toBe('rejected');
    await h.domain.flush();
    expect(await ledgerCount(h.ds, acc.id)).toBe(3);
  });

  test('a credit applies once per reference and admissions see it at once', async () => {
    const acc = await h.domain.billing.createAccount('credit', 1_000);
    await expect(hold(h, acc.id, 1_500)).rejects.toMatchObject({ status: 402 });
    expect(await h.domain.billing.credit(acc.id, 1_000, 'top-up-1')).toEqual({ balance_usd: 0.002 });
    expect(await h.domain.billing.credit(acc.id, 1_000, 'top-up-1')).toEqual({ balance_usd: 0.002 });
    await expect(h.domain.billing.credit(acc.id, 2_000, 'top-up-1')).rejects.toMatchObject({ status: 409, param: 'reference' });
    await expect(hold(h, acc.id, 1_500)).resolves.toMatchObject({ holdId: expect.any(String) });
    await h.domain.flush();
    expect(await balanceMicros(h.ds, acc.id)).toBe(2_000);
  });
});
