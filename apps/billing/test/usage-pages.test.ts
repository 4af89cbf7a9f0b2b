/**
 * Usage pages in both billing modes: walking `after` the last entry of each page visits every entry of
 * the account exactly once, newest first, also when many share one `created_at` (a group commit) or
 * one `created_at` and `occurred_at`; a cursor that is no entry of the account is a 400.
 */
import type { LedgerEntryView } from '@unigate/contracts';
import { insertLedgerEntries, startHarness, type Harness, type Mode } from './harness';

describe.each<Mode>(['redis', 'embedded'])('%s mode', (mode) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ mode });
  });
  afterAll(() => h.close());

  /** `count` entries written at `createdAt`, made `occurredAt(i)`, request ids `${prefix}-${i}`. */
  const insert = (accountId: string, prefix: string, count: number, createdAt: string, occurredAt: string) =>
    insertLedgerEntries(h.ds, accountId, count, { prefix, occurredAt, createdAt: `'${createdAt}'::timestamptz` });

  async function walk(accountId: string, limit: number): Promise<LedgerEntryView[][]> {
    const pages: LedgerEntryView[][] = [];
    let after: string | undefined;
    for (;;) {
      const page = await h.domain.billing.listUsage(accountId, { limit, after });
      pages.push(page.entries);
      if (!page.has_more) return pages;
      after = page.entries.at(-1)!.id;
    }
  }

  test('pages visit every entry once in the one order, ties of a group commit included', async () => {
    const acc = await h.domain.billing.createAccount('pages', 1_000_000);
    // A group commit: one created_at, calls a microsecond apart; then calls that share both times.
    await insert(
      acc.id,
      'batch',
      7,
      '2026-11-30 10:00:00.000001+00',
      `'2026-11-30 09:59:59+00'::timestamptz + i * interval '1 microsecond'`,
    );
    await insert(acc.id, 'twins', 6, '2026-11-30 10:00:00.000002+00', `'2026-11-30 09:59:58+00'::timestamptz`);
    await insert(acc.id, 'older', 4, '2026-11-29 10:00:00+00', `'2026-11-29 09:00:00+00'::timestamptz + i * interval '1 second'`);

    const whole = await h.domain.billing.listUsage(acc.id);
    expect(whole.has_more).toBe(false);
    expect(whole.entries).toHaveLength(17);
    // Newest written first; within one commit the call made last first.
    expect(whole.entries.slice(0, 6).every((e) => e.request_id.startsWith('twins-'))).toBe(true);
    expect(whole.entries.slice(6, 13).map((e) => e.request_id)).toEqual([
      'batch-7',
      'batch-6',
      'batch-5',
      'batch-4',
      'batch-3',
      'batch-2',
      'batch-1',
    ]);
    expect(whole.entries.slice(13).map((e) => e.request_id)).toEqual(['older-4', 'older-3', 'older-2', 'older-1']);

    for (const limit of [1, 2, 5, 16, 17]) {
      const pages = await walk(acc.id, limit);
      expect(pages.flat().map((e) => e.id)).toEqual(whole.entries.map((e) => e.id));
      expect(pages.every((p) => p.length <= limit)).toBe(true);
      expect(pages).toHaveLength(Math.ceil(17 / limit));
    }
  });

  test('a cursor that is no entry of the account is a 400 naming after; an unknown account is not found', async () => {
    const acc = await h.domain.billing.createAccount('pages-a', 1_000_000);
    const other = await h.domain.billing.createAccount('pages-b', 1_000_000);
    await insert(other.id, 'b', 1, '2026-11-30 10:00:00+00', 'now()');
    const [theirs] = (await h.domain.billing.listUsage(other.id)).entries;
    for (const after of [theirs.id, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      await expect(h.domain.billing.listUsage(acc.id, { after })).rejects.toMatchObject({ status: 400, param: 'after' });
    }
    await expect(h.domain.billing.listUsage(acc.id, { limit: 0 })).rejects.toMatchObject({ status: 400, param: 'limit' });
    await expect(h.domain.billing.listUsage('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ status: 404 });
  });
});
