/**
 * The reconciliation job: proves the copy of the money in Redis agrees with the ledger, and repairs
 * it when it does not. For every account Redis holds:
 * - a Redis version older than the ledger's (a lost update) → the ledger's balance is pushed;
 * - the same version with another balance (should never happen) → a mismatch: counted, logged, and
 *   the copy dropped so the next admission reloads it from the ledger;
 * - reserved ≠ the sum of the live holds (should never happen) → a mismatch: counted, logged, dropped;
 * - an account the ledger does not know → counted (kind `unknown_account`) and left alone, with one
 *   warning per pass: accounts are never deleted and their ids are UUIDs, so such a copy is another
 *   deployment's under the same key prefix (or from a ledger that was reset), and dropping it would
 *   make that deployment forget the holds of its calls in flight.
 * `unigate_billing_reconcile_mismatches_total` counts what was found, by kind.
 */
import type { Logger } from '@unigate/platform';
import { Counter } from 'prom-client';
import { metricsRegistry } from '@unigate/platform';
import type { AccountService } from '../domain/accounts';
import type { RedisReservations } from '../reservations';

export const reconcileMismatches = new Counter({
  name: 'unigate_billing_reconcile_mismatches_total',
  help: 'Differences the reconciliation job found between the ledger and the money in Redis, by kind',
  labelNames: ['kind'] as const,
  registers: [metricsRegistry],
});

export interface ReconcileReport {
  accounts: number;
  /** Redis was behind the ledger and got the ledger's balance (expected after a lost update). */
  refreshed: number;
  /** Redis disagreed with the ledger at the same version, or its holds did not add up. */
  mismatched: number;
  /** Copies of accounts the ledger does not know: not this deployment's, left alone. */
  unknown: number;
}

export class Reconciler {
  private timer?: NodeJS.Timeout;
  private running?: Promise<ReconcileReport>;

  constructor(
    private readonly accounts: AccountService,
    private readonly redis: RedisReservations,
    private readonly logger: Logger,
  ) {}

  /** One pass over every account Redis holds. */
  run(): Promise<ReconcileReport> {
    this.running ??= this.pass().finally(() => (this.running = undefined));
    return this.running;
  }

  /**
   * A first pass at once, then one per interval: a billing process killed between a ledger commit
   * and its Redis update left that account's copy behind, and admissions read the copy — it must not
   * wait a whole interval to be repaired.
   */
  start(intervalMs: number): void {
    if (this.timer) return;
    const pass = () =>
      void this.run().catch((err: unknown) => this.logger.warn({ err: String(err) }, 'reconciliation pass failed; will retry'));
    pass();
    this.timer = setInterval(pass, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  private async pass(): Promise<ReconcileReport> {
    const report: ReconcileReport = { accounts: 0, refreshed: 0, mismatched: 0, unknown: 0 };
    const unknownSample: string[] = [];
    for await (const accountId of this.redis.accounts()) {
      report.accounts++;
      // The copy first, then the ledger: a settlement commits to the ledger before it updates the
      // copy, so one that lands between the two reads leaves the copy behind (refreshed below), never
      // ahead. Read at once, a settlement between the ledger's read and the copy's made a busy
      // account's copy look one version ahead: logged as a disagreement, and dropped.
      const copy = await this.redis.read(accountId);
      if (!copy) continue;
      const truth = await this.accounts.money(accountId);
      if (!truth) {
        report.unknown++;
        reconcileMismatches.inc({ kind: 'unknown_account' });
        if (unknownSample.length < 5) unknownSample.push(accountId);
        continue;
      }
      const mismatch =
        copy.version === truth.version && copy.balance_micros !== truth.balance_micros
          ? 'balance'
          : copy.version > truth.version
            ? 'version_ahead'
            : copy.reserved_micros !== copy.held_micros
              ? 'reserved'
              : undefined;
      if (mismatch) {
        report.mismatched++;
        reconcileMismatches.inc({ kind: mismatch });
        this.logger.error(
          { account_id: accountId, kind: mismatch, redis: copy, ledger: truth },
          'ledger and Redis disagree; dropping the copy',
        );
        await this.redis.forget(accountId);
      } else if (copy.version < truth.version) {
        report.refreshed++;
        await this.redis.applyLedger(accountId, truth);
      }
    }
    if (report.unknown > 0)
      this.logger.warn(
        { count: report.unknown, sample: unknownSample },
        'Redis holds money copies of accounts this ledger does not know; left alone (another deployment sharing this UNIGATE_REDIS_KEY_PREFIX?)',
      );
    return report;
  }
}
