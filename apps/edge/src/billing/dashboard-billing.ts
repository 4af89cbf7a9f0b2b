/**
 * The legacy OpenAI billing endpoints as one-api/new-api serve them (reference/billing.md). Clients
 * compute balance = hard_limit_usd − total_usage/100, so hard_limit is everything ever granted
 * (balance + used) and total_usage is everything ever charged, in cents — whatever dates are asked
 * for, as new-api does; the dates only select `daily_costs`.
 */
import { errors, type DateRange, type QuotaView } from '@unigate/contracts';

const DAY_MS = 86_400_000;
const MAX_RANGE_DAYS = 366;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function subscriptionBody(q: QuotaView) {
  const totalUsd = (q.balance_micros + q.used_micros) / 1_000_000;
  return {
    object: 'billing_subscription',
    has_payment_method: true,
    soft_limit_usd: totalUsd,
    hard_limit_usd: totalUsd,
    system_hard_limit_usd: totalUsd,
    access_until: 0,
  };
}

export function usageBody(q: QuotaView) {
  return {
    object: 'list',
    total_usage: q.used_micros / 10_000,
    daily_costs: q.daily.map((d) => ({
      timestamp: Date.parse(`${d.date}T00:00:00Z`) / 1000,
      line_items: [{ name: 'usage', cost: d.charged_micros / 10_000 }],
    })),
  };
}

/** start_date/end_date (YYYY-MM-DD); defaults to the last 100 days. */
export function parseRange(query: { start_date?: unknown; end_date?: unknown }, now = Date.now()): DateRange {
  const day = (v: unknown, name: string): number | undefined => {
    if (v === undefined || v === '') return undefined;
    const t = typeof v === 'string' && ISO_DATE.test(v) ? Date.parse(`${v}T00:00:00Z`) : NaN;
    // A real calendar day (2026-02-30 rolls over, so it must read back the same), from 1970 on
    // (year 0000 is no date in Postgres).
    if (Number.isNaN(t) || t < 0 || new Date(t).toISOString().slice(0, 10) !== v)
      throw errors.invalidRequest(`Invalid '${name}': expected a date from 1970-01-01 on, as YYYY-MM-DD`, name);
    return t;
  };
  const to = day(query.end_date, 'end_date') ?? Math.floor(now / DAY_MS) * DAY_MS + DAY_MS;
  const from = day(query.start_date, 'start_date') ?? to - 100 * DAY_MS;
  if (from >= to) throw errors.invalidRequest("Invalid 'start_date': must be before end_date", 'start_date');
  if (to - from > MAX_RANGE_DAYS * DAY_MS)
    throw errors.invalidRequest(`Invalid 'start_date': the range may span at most ${MAX_RANGE_DAYS} days`, 'start_date');
  const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
  return { from: iso(from), to: iso(to) };
}
