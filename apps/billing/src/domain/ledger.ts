/** Reading the ledger: an account's settled usage, newest first. */
import { microsToUsd, type DailyModelUsage, type DateRange, type LedgerEntryView, type QuotaView } from '@unigate/contracts';
import { parseBigint } from '@unigate/platform/database';
import type { DataSource } from 'typeorm';
import { findAccount, readAccount } from './account-queries';
import { LedgerEntryEntity } from './entities';

/** The newest entries returned by one call; the API has no paging yet, so bound the answer. */
export const USAGE_PAGE_LIMIT = 1000;

export class LedgerService {
  constructor(private readonly ds: DataSource) {}

  async listUsage(accountId: string): Promise<LedgerEntryView[]> {
    const rows = await this.ds.transaction(async (m) => {
      await findAccount(m, accountId);
      return m.find(LedgerEntryEntity, {
        where: { accountId },
        order: { createdAt: 'DESC', occurredAt: 'DESC' },
        take: USAGE_PAGE_LIMIT,
      });
    });
    return rows.map(toView);
  }

  /**
   * Per UTC day and model in [from, to), in one GROUP BY over every entry of the range (listUsage's
   * page would cut it short). Days are of `created_at`, as the dashboard always showed them, so the
   * range is read through ledger_entries_account_created_idx (account_id, created_at): only the
   * range's rows, never the account's whole history.
   */
  async usageSummary(accountId: string, range: DateRange): Promise<DailyModelUsage[]> {
    const rows = await this.ds.transaction(async (m) => {
      await findAccount(m, accountId);
      return m.query(
        `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, model, count(*) AS requests,
                sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens, sum(cost_micros) AS cost_micros
         FROM billing.ledger_entries
         WHERE account_id = $1 AND created_at >= $2::date AT TIME ZONE 'UTC' AND created_at < $3::date AT TIME ZONE 'UTC'
         GROUP BY 1, 2
         ORDER BY 1 DESC, 2`,
        [accountId, range.from, range.to],
      ) as Promise<
        Array<{ date: string; model: string; requests: string; input_tokens: string; output_tokens: string; cost_micros: string }>
      >;
    });
    return rows.map((r) => ({
      date: r.date,
      model: r.model,
      requests: parseBigint(r.requests),
      input_tokens: parseBigint(r.input_tokens),
      output_tokens: parseBigint(r.output_tokens),
      cost_micros: parseBigint(r.cost_micros),
    }));
  }

  /**
   * One consistent read of the ledger: balance, all-time charged money and per-day charges. Neither
   * grows with the account's history: all-time usage is credits − balance, the invariant every
   * settlement keeps (opening credit + credits − charges = balance), and the days read only entries
   * written since the range began.
   */
  async quota(accountId: string, range?: DateRange): Promise<Omit<QuotaView, 'reserved_micros'>> {
    // REPEATABLE READ: balance, credits and charges from one snapshot, so they add up.
    return this.ds.transaction('REPEATABLE READ', async (m) => {
      const account = await readAccount(m, accountId);
      const [credited]: Array<{ micros: string }> = await m.query(
        `SELECT COALESCE(sum(amount_micros), 0)::text AS micros FROM billing.credits WHERE account_id = $1`,
        [accountId],
      );
      const daily: Array<{ date: string; charged: string }> = range
        ? await m.query(
            // Days are of `occurred_at` (when the call was made). An entry is written after its call, so
            // `created_at` bounds the scan to ledger_entries_account_created_idx's range; the day of
            // slack covers an edge clock ahead of the database's.
            `SELECT to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, sum(charged_micros)::text AS charged
             FROM billing.ledger_entries
             WHERE account_id = $1 AND created_at >= ($2::date - 1) AT TIME ZONE 'UTC'
               AND occurred_at >= $2::date AT TIME ZONE 'UTC' AND occurred_at < $3::date AT TIME ZONE 'UTC'
             GROUP BY 1
             ORDER BY 1`,
            [accountId, range.from, range.to],
          )
        : [];
      return {
        balance_micros: account.balanceMicros,
        used_micros: parseBigint(credited.micros) - account.balanceMicros,
        daily: daily.map((d) => ({ date: d.date, charged_micros: parseBigint(d.charged) })),
      };
    });
  }
}

function toView(e: LedgerEntryEntity): LedgerEntryView {
  return {
    id: e.id,
    request_id: e.requestId,
    model: e.model,
    kind: e.kind,
    input_tokens: e.inputTokens,
    cached_input_tokens: e.cachedInputTokens,
    output_tokens: e.outputTokens,
    units: e.units,
    cost_usd: microsToUsd(e.costMicros),
    cost_micros: e.costMicros,
    created_at: e.createdAt.toISOString(),
  };
}
