/**
 * Settling a batch of usage events in ONE short transaction (the Kafka consumer's path): a fixed
 * number of statements however many events, so one commit (one WAL flush) covers the whole batch.
 *
 * 1. Lock every account of the batch, in id order (the lock order every money statement follows,
 *    so concurrent batches, holds, releases and sweeps cannot deadlock).
 * 2. Read which requests already have a ledger entry. This statement starts after the locks were
 *    granted, so it sees everything committed by whoever held them: any other settlement of these
 *    requests (all settlements lock the event's account first) has either committed or not started.
 * 3. In memory, event by event in delivery order: charge min(cost, balance), balance after.
 * 4. One statement: insert the entries, delete the holds (the trigger lowers the reservations),
 *    write the new balances. If the ledger's unique index still refused an entry (only possible for
 *    events that disagree about the account of a request), the transaction is rolled back and the
 *    batch redelivered, rather than commit charges computed on a wrong premise.
 */
import { randomUUID } from 'node:crypto';
import type { UsageRecorded } from '@unigate/contracts';
import { parseBigint } from '@unigate/platform';
import type { DataSource } from 'typeorm';
import { isUuid } from './validate';

export type BatchOutcome = { outcome: 'settled'; chargedMicros: number } | { outcome: 'duplicate' } | { outcome: 'unknown_account' };

interface EntryRow {
  id: string;
  account_id: string;
  request_id: string;
  event_id: string;
  key_id: string;
  model: string;
  kind: string;
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  cost_micros: number;
  charged_micros: number;
  balance_after_micros: number;
  occurred_at: string;
  hold_id: string | null;
}

const WRITE_SQL = `
  WITH e AS MATERIALIZED (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS e(id uuid, account_id uuid, request_id text, event_id text, key_id text,
      model text, kind text, input_tokens bigint, cached_input_tokens bigint, output_tokens bigint, cost_micros bigint,
      charged_micros bigint, balance_after_micros bigint, occurred_at timestamptz, hold_id uuid)
  ), entries AS (
    INSERT INTO billing.ledger_entries (id, account_id, request_id, event_id, key_id, model, kind, input_tokens,
      cached_input_tokens, output_tokens, cost_micros, charged_micros, balance_after_micros, occurred_at)
    SELECT id, account_id, request_id, event_id, key_id, model, kind, input_tokens, cached_input_tokens, output_tokens,
           cost_micros, charged_micros, balance_after_micros, occurred_at
    FROM e
    ON CONFLICT (request_id) DO NOTHING
    RETURNING 1
  ), settled_holds AS (
    DELETE FROM billing.holds h USING e
    WHERE h.account_id = e.account_id AND (h.request_id = e.request_id OR h.id = e.hold_id)
  ), debit AS (
    UPDATE billing.accounts a SET balance_micros = b.balance
    FROM jsonb_to_recordset($2::jsonb) AS b(id uuid, balance bigint) WHERE a.id = b.id
  )
  SELECT count(*)::int AS inserted FROM entries`;

export async function settleBatch(ds: DataSource, events: UsageRecorded[]): Promise<BatchOutcome[]> {
  return ds.transaction(async (m) => {
    const accountIds = [...new Set(events.map((e) => e.account_id))].sort();
    const locked: Array<{ id: string; balance_micros: string }> = await m.query(
      `SELECT a.id, a.balance_micros FROM billing.accounts a WHERE a.id = ANY($1::uuid[]) ORDER BY a.id FOR UPDATE`,
      [accountIds],
    );
    const balances = new Map(locked.map((a) => [a.id, parseBigint(a.balance_micros)]));
    const known: Array<{ request_id: string }> = await m.query(
      `SELECT request_id FROM billing.ledger_entries WHERE request_id = ANY($1::text[])`,
      [events.map((e) => e.request_id)],
    );
    const settled = new Set(known.map((r) => r.request_id));

    const rows: EntryRow[] = [];
    const outcomes = events.map((ev): BatchOutcome => {
      const balance = balances.get(ev.account_id);
      if (balance === undefined) return { outcome: 'unknown_account' };
      if (settled.has(ev.request_id)) return { outcome: 'duplicate' };
      settled.add(ev.request_id); // a second copy later in the same batch is a duplicate too
      const charged = Math.min(ev.cost_micros, balance);
      balances.set(ev.account_id, balance - charged);
      rows.push(entryRow(ev, charged, balance - charged));
      return { outcome: 'settled', chargedMicros: charged };
    });
    if (rows.length === 0) return outcomes;

    const changed = [...new Set(rows.map((r) => r.account_id))].map((id) => ({ id, balance: balances.get(id) }));
    const [{ inserted }]: Array<{ inserted: number }> = await m.query(WRITE_SQL, [JSON.stringify(rows), JSON.stringify(changed)]);
    if (inserted !== rows.length) {
      throw new Error(
        `usage batch: ${rows.length - inserted} ledger entries already existed under another account; rolled back for redelivery`,
      );
    }
    return outcomes;
  });
}

function entryRow(ev: UsageRecorded, charged: number, balanceAfter: number): EntryRow {
  return {
    id: randomUUID(),
    account_id: ev.account_id,
    request_id: ev.request_id,
    event_id: ev.event_id,
    key_id: ev.key_id,
    model: ev.model,
    kind: ev.kind,
    input_tokens: ev.units.input_tokens,
    cached_input_tokens: ev.units.cached_input_tokens,
    output_tokens: ev.units.output_tokens,
    cost_micros: ev.cost_micros,
    charged_micros: charged,
    balance_after_micros: balanceAfter,
    occurred_at: new Date(ev.occurred_at).toISOString(),
    hold_id: ev.hold_id && isUuid(ev.hold_id) ? ev.hold_id : null,
  };
}
