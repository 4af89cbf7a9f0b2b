/**
 * Settling a batch of usage events in ONE short transaction (the Kafka consumer's path): a fixed
 * number of statements however many events, so one commit (one WAL flush) covers the whole batch.
 *
 * 1. Lock every account of the batch, in id order (the lock order every money statement follows,
 *    so concurrent batches, single settlements and credits cannot deadlock).
 * 2. Read which requests already have a ledger entry. This statement starts after the locks were
 *    granted, so it sees everything committed by whoever held them: any other settlement of these
 *    requests (all settlements lock the event's account first) has either committed or not started.
 * 3. In memory, event by event in delivery order: charge min(cost, balance), balance after.
 * 4. Insert the entries and write the new balances, in one statement. If the ledger's unique index
 *    still refused an entry (only possible for events that disagree about the account of a request),
 *    the transaction is rolled back and the batch redelivered, rather than commit charges computed on
 *    a wrong premise.
 * Every account's balance and version afterwards come back, for the copy of the money in Redis.
 */
import type { UsageRecorded } from '@unigate/contracts';
import { parseBigint } from '@unigate/platform/database';
import type { DataSource } from 'typeorm';
import type { AccountMoney } from '@unigate/contracts';
import { entryRow, INSERT_ENTRIES_SQL, type EntryRow } from './usage-event';

export type BatchOutcome = { outcome: 'settled'; chargedMicros: number } | { outcome: 'duplicate' } | { outcome: 'unknown_account' };

export interface BatchResult {
  outcomes: BatchOutcome[];
  /** Account id → its money after the batch (every account of the batch that exists). */
  money: Map<string, AccountMoney>;
}

/**
 * The batch's entries ($1) and the balances they produced ($2: [{id, balance}]) in one statement, one
 * round trip: a row per inserted entry (`request_id`), then a row per account written (`id`, its
 * balance and version after). Either part failing its check rolls back the whole transaction.
 */
const WRITE_ENTRIES_AND_BALANCES_SQL = `
  WITH ins AS (${INSERT_ENTRIES_SQL}),
  u AS (
    UPDATE billing.accounts a SET balance_micros = b.balance
    FROM jsonb_to_recordset($2::jsonb) AS b(id uuid, balance bigint) WHERE a.id = b.id
    RETURNING a.id, a.balance_micros, a.version
  )
  SELECT request_id, NULL AS id, NULL AS balance, NULL AS version FROM ins
  UNION ALL
  SELECT NULL, id::text, balance_micros::text, version::text FROM u`;

type WrittenRow =
  { request_id: string; id: null; balance: null; version: null } | { request_id: null; id: string; balance: string; version: string };

export async function settleBatch(ds: DataSource, events: UsageRecorded[]): Promise<BatchResult> {
  return ds.transaction(async (m) => {
    const accountIds = [...new Set(events.map((e) => e.account_id))].sort();
    const locked: Array<{ id: string; balance: string; version: string }> = await m.query(
      `SELECT a.id, a.balance_micros::text AS balance, a.version::text AS version FROM billing.accounts a
       WHERE a.id = ANY($1::uuid[]) ORDER BY a.id FOR UPDATE`,
      [accountIds],
    );
    const money = new Map(locked.map((a) => [a.id, { balance_micros: parseBigint(a.balance), version: parseBigint(a.version) }]));
    const known: Array<{ request_id: string }> = await m.query(
      `SELECT request_id FROM billing.ledger_entries WHERE request_id = ANY($1::text[])`,
      [events.map((e) => e.request_id)],
    );
    const settled = new Set(known.map((r) => r.request_id));
    const rows: EntryRow[] = [];
    const outcomes = events.map((ev): BatchOutcome => {
      const account = money.get(ev.account_id);
      if (!account) return { outcome: 'unknown_account' };
      if (settled.has(ev.request_id)) return { outcome: 'duplicate' };
      settled.add(ev.request_id); // a second copy later in the same batch is a duplicate too
      const charged = Math.min(ev.cost_micros, account.balance_micros);
      account.balance_micros -= charged;
      rows.push(entryRow(ev, charged, account.balance_micros));
      return { outcome: 'settled', chargedMicros: charged };
    });
    if (rows.length === 0) return { outcomes, money };
    const changed = [...new Set(rows.filter((r) => r.charged_micros > 0).map((r) => r.account_id))];
    const written: WrittenRow[] = await m.query(WRITE_ENTRIES_AND_BALANCES_SQL, [
      JSON.stringify(rows),
      JSON.stringify(changed.map((id) => ({ id, balance: money.get(id)!.balance_micros }))),
    ]);
    const inserted = written.filter((w) => w.request_id !== null).length;
    if (inserted !== rows.length) {
      throw new Error(
        `usage batch: ${rows.length - inserted} ledger entries already existed under another account; rolled back for redelivery`,
      );
    }
    for (const w of written)
      if (w.request_id === null) money.set(w.id, { balance_micros: parseBigint(w.balance), version: parseBigint(w.version) });
    return { outcomes, money };
  });
}
