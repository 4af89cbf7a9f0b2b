/**
 * A `usage.recorded` event as billing settles it: checked before anything is written (a malformed
 * event is logged and rejected, never redelivered forever), and turned into its ledger row.
 */
import { randomUUID } from 'node:crypto';
import { usageRecordedSchema, type UsageRecorded } from '@unigate/contracts';
import type { Logger } from '@unigate/platform';
import { preparedStatement } from '@unigate/platform/database';
import { isUuid } from './validate';

export type SettleOutcome = 'settled' | 'duplicate' | 'rejected';

/** The event, or null (logged) when it can never settle. */
export function validUsageEvent(payload: unknown, logger: Logger): UsageRecorded | null {
  const parsed = usageRecordedSchema.safeParse(payload);
  if (!parsed.success) {
    logger.error({ issues: parsed.error.issues }, 'rejecting malformed usage.recorded event');
    return null;
  }
  const ev = parsed.data;
  if (!isUuid(ev.account_id) || Number.isNaN(Date.parse(ev.occurred_at)) || !Number.isSafeInteger(ev.cost_micros)) {
    logger.error({ event_id: ev.event_id }, 'rejecting usage.recorded event: bad account_id, occurred_at or cost');
    return null;
  }
  return ev;
}

/** One row of billing.ledger_entries. */
export interface EntryRow {
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
  units: UsageRecorded['units'];
  cost_micros: number;
  charged_micros: number;
  balance_after_micros: number;
  occurred_at: string;
}

export function entryRow(ev: UsageRecorded, charged: number, balanceAfter: number): EntryRow {
  return {
    id: randomUUID(),
    account_id: ev.account_id,
    request_id: ev.request_id,
    event_id: ev.event_id,
    key_id: ev.key_id,
    model: ev.model,
    kind: ev.kind,
    input_tokens: ev.units.input_tokens ?? 0,
    cached_input_tokens: ev.units.cached_input_tokens ?? 0,
    output_tokens: ev.units.output_tokens ?? 0,
    units: ev.units,
    cost_micros: ev.cost_micros,
    charged_micros: charged,
    balance_after_micros: balanceAfter,
    occurred_at: new Date(ev.occurred_at).toISOString(),
  };
}

const ENTRY_COLUMNS = `id, account_id, request_id, event_id, key_id, model, kind, input_tokens, cached_input_tokens,
  output_tokens, units, cost_micros, charged_micros, balance_after_micros, occurred_at`;
const ENTRY_RECORDSET = `jsonb_to_recordset($1::jsonb) AS e(id uuid, account_id uuid, request_id text, event_id text, key_id text,
  model text, kind text, input_tokens bigint, cached_input_tokens bigint, output_tokens bigint, units jsonb, cost_micros bigint,
  charged_micros bigint, balance_after_micros bigint, occurred_at timestamptz)`;

/** Inserts rows in one statement; returns the request ids it inserted (a duplicate is skipped). */
export const INSERT_ENTRIES_SQL = `
  INSERT INTO billing.ledger_entries (${ENTRY_COLUMNS})
  SELECT ${ENTRY_COLUMNS} FROM ${ENTRY_RECORDSET}
  ON CONFLICT (request_id) DO NOTHING
  RETURNING request_id`;

/**
 * Inserts rows ($1) and sets the balances they produced ($2: [{id, balance}]) in one statement, so
 * one autocommit round trip writes a whole batch. A row skipped as a duplicate gives its charge back
 * to its account's balance. Returns the request ids it inserted. Prepared (account-queries' `run`):
 * parsing and planning this statement is about a third of a group commit's cost on the embedded store.
 */
export const WRITE_ENTRIES_AND_BALANCES = preparedStatement(
  'billing_write_entries_and_balances',
  `
  WITH e AS (SELECT * FROM ${ENTRY_RECORDSET}),
  ins AS (
    INSERT INTO billing.ledger_entries (${ENTRY_COLUMNS})
    SELECT ${ENTRY_COLUMNS} FROM e
    ON CONFLICT (request_id) DO NOTHING
    RETURNING request_id),
  returned AS (
    SELECT account_id, sum(charged_micros) AS micros FROM e
    WHERE request_id NOT IN (SELECT request_id FROM ins) GROUP BY account_id),
  balances AS (
    UPDATE billing.accounts a SET balance_micros = b.balance + COALESCE((SELECT micros FROM returned r WHERE r.account_id = b.id), 0)
    FROM jsonb_to_recordset($2::jsonb) AS b(id uuid, balance bigint) WHERE a.id = b.id)
  SELECT request_id FROM ins`,
);
