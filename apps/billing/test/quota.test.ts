/**
 * Quota in both billing modes: all-time usage is what was credited less the balance (never a sum over
 * the account's whole ledger), and the days sum their range's charges by the day each call was made,
 * reading only the entries written since the range began.
 */
import { insertLedgerEntries, startHarness, utcDay, type Harness, type Mode } from './harness';

const day = utcDay;

describe.each<Mode>(['redis', 'embedded'])('%s mode', (mode) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ mode });
  });
  afterAll(() => h.close());

  /**
   * `count` entries charged `charged` each, made at noon UTC of `date` and written `writtenAfterMs` later
   * (negative: a call stamped by an edge clock ahead of the database's); the balance drops by the
   * charges, as a settlement's does.
   */
  const charge = async (accountId: string, date: string, count: number, charged: number, writtenAfterMs = 0) => {
    const noon = `'${date}'::date AT TIME ZONE 'UTC' + interval '12 hours'`;
    await insertLedgerEntries(h.ds, accountId, count, {
      prefix: `${accountId}-${date}-${writtenAfterMs}`,
      cost: charged,
      occurredAt: noon,
      createdAt: `${noon} + ${writtenAfterMs} * interval '1 millisecond'`,
    });
    await h.ds.query(`UPDATE billing.accounts SET balance_micros = balance_micros - $2 WHERE id = $1`, [accountId, count * charged]);
  };

  test('all-time usage is credits less the balance; the days count their range by when each call was made', async () => {
    const acc = await h.domain.billing.createAccount('quota', 5_000_000);
    await h.domain.billing.credit(acc.id, 2_000_000, 'top-up');
    await charge(acc.id, day(-40), 300, 1_000);
    await charge(acc.id, day(-2), 4, 500);
    // Made today, written five minutes "before" it by the database's clock.
    await charge(acc.id, day(0), 3, 7, -300_000);

    const quota = await h.domain.billing.quota(acc.id, { from: day(-30), to: day(1) });
    const charged = 300 * 1_000 + 4 * 500 + 3 * 7;
    expect(quota).toMatchObject({ balance_micros: 7_000_000 - charged, used_micros: charged, reserved_micros: 0 });
    expect(quota.daily).toEqual([
      { date: day(-2), charged_micros: 2_000 },
      { date: day(0), charged_micros: 21 },
    ]);
    // `to` is exclusive.
    expect((await h.domain.billing.quota(acc.id, { from: day(-40), to: day(-2) })).daily).toEqual([
      { date: day(-40), charged_micros: 300_000 },
    ]);
  });

  test('reads no ledger entry written before the range began, so a long history costs quota nothing', async () => {
    const acc = await h.domain.billing.createAccount('quota-history', 1_000_000);
    await charge(acc.id, day(-3), 2, 10);
    await h.domain.billing.quota(acc.id); // anything queued is written before the statements are watched
    const statements: string[] = [];
    const logQuery = jest.spyOn(h.ds.logger, 'logQuery').mockImplementation((query) => void statements.push(query));
    try {
      expect(await h.domain.billing.quota(acc.id)).toMatchObject({ used_micros: 20 });
      expect((await h.domain.billing.quota(acc.id, { from: day(-7), to: day(1) })).daily).toEqual([{ date: day(-3), charged_micros: 20 }]);
    } finally {
      logQuery.mockRestore();
    }
    const ledgerReads = statements.filter((s) => /^\s*SELECT/i.test(s) && s.includes('ledger_entries'));
    expect(ledgerReads).toHaveLength(1);
    expect(ledgerReads[0]).toMatch(/created_at >=/);
  });
});
