/**
 * Expired holds give their money back. A hold whose owner died (edge crash, lost usage event) stops
 * counting once `expires_at` passes — reads already leave it out (RESERVED_NOW_SQL) — but its row,
 * and so its share of `accounts.reserved_micros`, stays until someone deletes it. That is this file:
 * a periodic sweep on every replica, and an on-demand sweep of one account when a hold would
 * otherwise be refused (holds.ts).
 *
 * Safe across replicas and against the hot path: the statement locks the affected accounts first, in
 * id order (the lock order every money statement follows: account rows, then their holds), deletes
 * their expired holds, and the holds trigger lowers each counter once. Two sweepers racing simply
 * wait for each other; the second finds nothing left to delete.
 */
import { parseBigint, preparedStatement, type Logger } from '@unigate/platform';
import { run, type Db } from './account-queries';

/** Accounts one sweep statement handles at most; the next tick takes the rest. */
export const SWEEP_MAX_ACCOUNTS = 500;

export interface SweepResult {
  holds: number;
  micros: number;
}

/** The statement for expired holds picked by `expiredAccounts` (a subquery over `billing.holds x`). */
const sweepSql = (expiredAccounts: string) => `
  WITH acc AS MATERIALIZED (
    SELECT a.id FROM billing.accounts a
    WHERE a.id IN (${expiredAccounts})
    ORDER BY a.id
    FOR UPDATE
  ), gone AS (
    DELETE FROM billing.holds h USING acc
    WHERE h.account_id = acc.id AND h.expires_at <= now()
    RETURNING h.amount_micros
  )
  SELECT count(*)::int AS holds, COALESCE(SUM(amount_micros), 0)::text AS micros FROM gone`;

const SWEEP_ALL = preparedStatement(
  'billing_sweep_expired_holds',
  sweepSql(`SELECT DISTINCT x.account_id FROM billing.holds x WHERE x.expires_at <= now() LIMIT ${SWEEP_MAX_ACCOUNTS}`),
);
const SWEEP_ACCOUNT = preparedStatement(
  'billing_sweep_account_expired_holds',
  sweepSql(`SELECT x.account_id FROM billing.holds x WHERE x.account_id = $1 AND x.expires_at <= now() LIMIT 1`),
);

/** Deletes expired holds (of one account, or of up to SWEEP_MAX_ACCOUNTS accounts) in one statement. */
export async function sweepExpiredHolds(db: Db, accountId?: string): Promise<SweepResult> {
  const rows = accountId
    ? await run<{ holds: number; micros: string }>(db, SWEEP_ACCOUNT, [accountId])
    : await run<{ holds: number; micros: string }>(db, SWEEP_ALL, []);
  return { holds: rows[0].holds, micros: parseBigint(rows[0].micros) };
}

export interface HoldSweeperOptions {
  intervalMs: number;
  logger: Logger;
  /** False once the DataSource is closed: a late tick then does nothing. */
  isOpen: () => boolean;
}

/** The periodic sweep. One tick at a time; stop() waits for a running one. */
export class HoldSweeper {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly db: Db,
    private readonly opts: HoldSweeperOptions,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.sweepNow(), this.opts.intervalMs);
    this.timer.unref(); // never the reason a process stays alive
  }

  /** One sweep now (also what the timer calls); failures are logged, the next tick tries again. */
  sweepNow(): Promise<void> {
    if (this.running || !this.opts.isOpen()) return this.running ?? Promise.resolve();
    this.running = sweepExpiredHolds(this.db)
      .then((r) => {
        if (r.holds > 0) this.opts.logger.info({ holds: r.holds, micros: r.micros }, 'expired holds swept back to available');
      })
      .catch((err: unknown) => this.opts.logger.warn({ err }, 'hold sweep failed; will retry'))
      .finally(() => (this.running = undefined));
    return this.running;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
