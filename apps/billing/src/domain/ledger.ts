/** Reading the ledger: an account's settled usage, newest first. */
import {
  errors,
  microsToUsd,
  parseOrThrow,
  usagePageQuerySchema,
  type DailyModelUsage,
  type DateRange,
  type LedgerEntryView,
  type QuotaView,
  type UsagePage,
  type UsagePageQuery,
} from '@unigate/contracts';
import { parseBigint } from '@unigate/platform/database';
import type { DataSource, EntityManager } from 'typeorm';
import { findAccount, readAccount } from './account-queries';
import { LedgerEntryEntity } from './entities';

export class LedgerService {
  constructor(private readonly ds: DataSource) {}

  /**
   * One page of the account's entries, newest first: by `created_at`, then `occurred_at` (a group
   * commit writes its entries with one `created_at`), then id, so that every entry has one place and a
   * page after an entry goes on exactly where that page ended. Read through
   * ledger_entries_account_created_idx: a page costs its own entries, however deep.
   */
  async listUsage(accountId: string, query: UsagePageQuery = {}): Promise<UsagePage> {
    // Checked here too: an id that is no uuid would be the database's error, not the caller's 400.
    const page = parseOrThrow(usagePageQuerySchema, query);
    const rows = await this.ds.transaction(async (m) => {
      await findAccount(m, accountId);
      const after = page.after === undefined ? undefined : await entryPlace(m, accountId, page.after);
      const select = m
        .getRepository(LedgerEntryEntity)
        .createQueryBuilder('l')
        .where('l.account_id = :accountId', { accountId })
        .orderBy('l.created_at', 'DESC')
        .addOrderBy('l.occurred_at', 'DESC')
        .addOrderBy('l.id', 'DESC')
        .limit(page.limit + 1);
      if (after) {
        // The first condition is the index's range; the row comparison places the entry exactly.
        select.andWhere(
          `l.created_at <= (:createdAt)::timestamptz
           AND (l.created_at, l.occurred_at, l.id) < ((:createdAt)::timestamptz, (:occurredAt)::timestamptz, (:id)::uuid)`,
          after,
        );
      }
      return select.getMany();
    });
    return { entries: rows.slice(0, page.limit).map(toView), has_more: rows.length > page.limit };
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

/**
 * Where the entry `id` stands in the account's order, as the database stores its times (microseconds,
 * which a JavaScript Date would cut to milliseconds). An id that is no entry of the account is a 400.
 */
async function entryPlace(m: EntityManager, accountId: string, id: string): Promise<{ createdAt: string; occurredAt: string; id: string }> {
  const [place]: Array<{ createdAt: string; occurredAt: string }> = await m.query(
    `SELECT created_at::text AS "createdAt", occurred_at::text AS "occurredAt" FROM billing.ledger_entries WHERE id = $1 AND account_id = $2`,
    [id, accountId],
  );
  if (!place) throw errors.invalidRequest(`after: no ledger entry ${id} in this account`, 'after');
  return { ...place, id };
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
