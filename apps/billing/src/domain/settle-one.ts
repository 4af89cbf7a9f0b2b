/**
 * Settling one usage event in ONE autocommit statement (any single delivery): lock the account,
 * insert the ledger entry unless the request already has one, take the charge from the balance.
 * Why this is exact under concurrency, in READ COMMITTED:
 *
 * - `acc` locks the account row. If another transaction changed it since this statement's snapshot,
 *   the lock returns the newest committed version, so `balance_micros` there is the real balance.
 * - Exactly-once does not rely on any snapshot read: the ledger's unique index on request_id
 *   decides. ON CONFLICT waits for a concurrent inserter of the same request and then skips; an
 *   insert that did not happen returns no row, and the debit joins on that RETURNING, so a
 *   duplicate changes nothing.
 * - `debit` writes the balance computed from the locked version (absolute, not relative to the
 *   possibly older snapshot version the UPDATE starts from; it follows the row to its newest version).
 * The account's balance and version afterwards come back for the copy of the money in Redis.
 */
import type { UsageRecorded } from '@unigate/contracts';
import { parseBigint, preparedStatement } from '@unigate/platform/database';
import type { AccountMoney } from '@unigate/contracts';
import { run, type Db } from './account-queries';

const SETTLE_ONE = preparedStatement(
  'billing_settle_one',
  `
  WITH acc AS MATERIALIZED (
    SELECT a.id, a.balance_micros, a.version FROM billing.accounts a WHERE a.id = $1 FOR UPDATE
  ), entry AS (
    INSERT INTO billing.ledger_entries (id, account_id, request_id, event_id, key_id, model, kind, input_tokens,
      cached_input_tokens, output_tokens, units, cost_micros, charged_micros, balance_after_micros, occurred_at)
    SELECT $2, acc.id, $3, $4, $5, $6, $7, $8, $9, $10, $13::jsonb, $11::bigint,
           LEAST($11::bigint, acc.balance_micros), acc.balance_micros - LEAST($11::bigint, acc.balance_micros), $12
    FROM acc
    ON CONFLICT (request_id) DO NOTHING
    RETURNING account_id, charged_micros, balance_after_micros
  ), debit AS (
    UPDATE billing.accounts a SET balance_micros = entry.balance_after_micros
    FROM entry WHERE a.id = entry.account_id AND entry.charged_micros > 0
    RETURNING a.balance_micros, a.version
  )
  SELECT (SELECT count(*) FROM acc)::int AS accounts,
         (SELECT charged_micros::text FROM entry) AS charged,
         COALESCE((SELECT balance_micros FROM debit), (SELECT balance_micros FROM acc))::text AS balance,
         COALESCE((SELECT version FROM debit), (SELECT version FROM acc))::text AS version`,
);

export type OneOutcome =
  | { outcome: 'settled'; chargedMicros: number; money: AccountMoney }
  | { outcome: 'duplicate'; money: AccountMoney }
  | { outcome: 'unknown_account' };

export async function settleOne(db: Db, ev: UsageRecorded, entryId: string): Promise<OneOutcome> {
  const [r] = await run<{ accounts: number; charged: string | null; balance: string | null; version: string | null }>(db, SETTLE_ONE, [
    ev.account_id,
    entryId,
    ev.request_id,
    ev.event_id,
    ev.key_id,
    ev.model,
    ev.kind,
    ev.units.input_tokens ?? 0,
    ev.units.cached_input_tokens ?? 0,
    ev.units.output_tokens ?? 0,
    ev.cost_micros,
    new Date(ev.occurred_at),
    JSON.stringify(ev.units),
  ]);
  if (r.accounts === 0) return { outcome: 'unknown_account' };
  const money = { balance_micros: parseBigint(r.balance ?? '0'), version: parseBigint(r.version ?? '0') };
  if (r.charged === null) return { outcome: 'duplicate', money };
  return { outcome: 'settled', chargedMicros: parseBigint(r.charged), money };
}
