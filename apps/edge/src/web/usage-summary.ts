/** The dashboard's usage views, from the account's ledger entries (newest first, as billing lists them). */
import type { LedgerEntryView } from '@unigate/contracts';

export interface DayModelUsage {
  date: string;
  model: string;
  requests: number;
  input_tokens: number;
  output_tokens: number;
  cost_micros: number;
}

/** Per UTC day and model, newest day first, over the last `days` days. */
export function usageByDayAndModel(entries: readonly LedgerEntryView[], now = Date.now(), days = 30): DayModelUsage[] {
  const since = new Date(now - days * 86_400_000).toISOString().slice(0, 10);
  const rows = new Map<string, DayModelUsage>();
  for (const e of entries) {
    const date = e.created_at.slice(0, 10);
    if (date < since) continue;
    const key = `${date}\u0000${e.model}`;
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { date, model: e.model, requests: 0, input_tokens: 0, output_tokens: 0, cost_micros: 0 }));
    row.requests += 1;
    row.input_tokens += e.input_tokens;
    row.output_tokens += e.output_tokens;
    row.cost_micros += e.cost_micros;
  }
  return [...rows.values()].sort((a, b) => b.date.localeCompare(a.date) || a.model.localeCompare(b.model));
}
