/**
 * The dashboard's usage per day and model, summed by billing over every entry of the range in both
 * billing modes: more entries than one listUsage page holds are all counted, days are UTC days of
 * `created_at`, entries outside the range and other accounts' are left out.
 */
import { USAGE_PAGE_LIMIT } from '@unigate/contracts';
import { insertLedgerEntries, startHarness, utcDay, type Harness, type Mode } from './harness';

const ENTRIES_TODAY = USAGE_PAGE_LIMIT + 200;
const day = utcDay;

describe.each<Mode>(['redis', 'embedded'])('%s mode', (mode) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ mode });
  });
  afterAll(() => h.close());

  /** `count` entries of `model` written at noon UTC of `date` (input 10, output 4, cost 3 each). */
  const insert = (accountId: string, model: string, date: string, count: number) =>
    insertLedgerEntries(h.ds, accountId, count, {
      prefix: `${accountId}-${model}-${date}`,
      model,
      occurredAt: `'${date}'::date AT TIME ZONE 'UTC' + interval '12 hours'`,
    });

  test('counts every entry of the range, more than one usage page, per UTC day and model, newest day first', async () => {
    const acc = await h.domain.billing.createAccount('summary', 1_000_000);
    const other = await h.domain.billing.createAccount('summary-other', 1_000_000);
    await insert(acc.id, 'model-b', day(0), ENTRIES_TODAY);
    await insert(acc.id, 'model-a', day(0), 2);
    await insert(acc.id, 'model-a', day(-1), 5);
    await insert(acc.id, 'model-a', day(-40), 7);
    await insert(other.id, 'model-a', day(0), 9);

    // What the dashboard's table was built from: a bounded page of the newest entries.
    expect((await h.domain.billing.listUsage(acc.id)).entries).toHaveLength(USAGE_PAGE_LIMIT);
    const row = (date: string, model: string, n: number) => ({
      date,
      model,
      requests: n,
      input_tokens: 10 * n,
      output_tokens: 4 * n,
      cost_micros: 3 * n,
    });
    expect(await h.domain.billing.usageSummary(acc.id, { from: day(-30), to: day(1) })).toEqual([
      row(day(0), 'model-a', 2),
      row(day(0), 'model-b', ENTRIES_TODAY),
      row(day(-1), 'model-a', 5),
    ]);
    // `to` is exclusive, `from` inclusive.
    expect(await h.domain.billing.usageSummary(acc.id, { from: day(-1), to: day(0) })).toEqual([row(day(-1), 'model-a', 5)]);
  });

  test('an unknown account is not found', async () => {
    await expect(
      h.domain.billing.usageSummary('00000000-0000-4000-8000-000000000000', { from: day(-30), to: day(1) }),
    ).rejects.toMatchObject({ status: 404 });
  });
});
