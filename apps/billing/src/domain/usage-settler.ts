/**
 * Settlement of `usage.recorded` into the ledger in Postgres (the distributed deployment): the ledger
 * entry (unique by request id) and the charge taken from the balance (clamped at zero, the shortfall
 * recorded) — one statement per event (settle-one.ts) or one transaction per batch (settle-batch.ts).
 * A redelivered or duplicated event finds its ledger entry and changes nothing. After each, the new
 * balance and the settled hold go to the copy of the money that admissions read (`afterSettle`).
 */
import { randomUUID } from 'node:crypto';
import type { UsageRecorded } from '@unigate/contracts';
import type { Logger } from '@unigate/platform';
import type { DataSource } from 'typeorm';
import type { AccountMoney } from '@unigate/contracts';
import { settleBatch, type BatchOutcome } from './settle-batch';
import { settleOne } from './settle-one';
import { validUsageEvent, type SettleOutcome } from './usage-event';

/** Told what the ledger holds after events of an account settled (or turned out duplicates): their holds and the balance. */
export type AfterSettle = (accountId: string, money: AccountMoney, holdIds: readonly string[]) => Promise<void>;

export class UsageSettler {
  constructor(
    private readonly ds: DataSource,
    private readonly logger: Logger,
    private readonly afterSettle: AfterSettle = async () => undefined,
  ) {}

  /**
   * Handles one event. Events that can never settle (malformed, unknown account) are logged and
   * reported as 'rejected' rather than thrown: redelivering them forever would block the partition.
   * Anything else that fails (the database) throws, so the bus redelivers.
   */
  async handle(payload: unknown): Promise<SettleOutcome> {
    const ev = validUsageEvent(payload, this.logger);
    if (!ev) return 'rejected';
    const r = await settleOne(this.ds, ev, randomUUID());
    if (r.outcome === 'unknown_account') return this.report(ev, r);
    // A duplicate too: the first delivery may have committed and died before it told the copy.
    await this.afterSettle(ev.account_id, r.money, [holdOf(ev)]);
    return this.report(ev, r);
  }

  /** Handles events in delivery order in one transaction; all or nothing (a throw redelivers the batch). */
  async handleBatch(payloads: unknown[]): Promise<SettleOutcome[]> {
    if (payloads.length === 1) return [await this.handle(payloads[0])];
    const valid: Array<{ index: number; ev: UsageRecorded }> = [];
    const outcomes: SettleOutcome[] = payloads.map((p, index) => {
      const ev = validUsageEvent(p, this.logger);
      if (ev) valid.push({ index, ev });
      return 'rejected';
    });
    if (valid.length === 0) return outcomes;
    const { outcomes: settled, money } = await settleBatch(
      this.ds,
      valid.map((v) => v.ev),
    );
    // One update per account: its final money, and every hold it had in the batch dropped.
    const holds = new Map<string, string[]>();
    for (const { ev } of valid) {
      if (!money.has(ev.account_id)) continue;
      const ids = holds.get(ev.account_id);
      if (ids) ids.push(holdOf(ev));
      else holds.set(ev.account_id, [holdOf(ev)]);
    }
    await Promise.all([...holds].map(([accountId, ids]) => this.afterSettle(accountId, money.get(accountId)!, ids)));
    valid.forEach((v, i) => (outcomes[v.index] = this.report(v.ev, settled[i])));
    return outcomes;
  }

  private report(ev: UsageRecorded, result: BatchOutcome): SettleOutcome {
    switch (result.outcome) {
      case 'unknown_account':
        this.logger.error({ event_id: ev.event_id, account_id: ev.account_id }, 'rejecting usage for an unknown account');
        return 'rejected';
      case 'duplicate':
        return 'duplicate';
      case 'settled':
        if (result.chargedMicros < ev.cost_micros) {
          this.logger.warn(
            { request_id: ev.request_id, account_id: ev.account_id, cost_micros: ev.cost_micros, charged_micros: result.chargedMicros },
            'usage cost exceeded the balance; clamped at zero',
          );
        }
        return 'settled';
    }
  }
}

/** The hold an event settles: its own id, or (the gateway's convention) the request id. */
export function holdOf(ev: UsageRecorded): string {
  return ev.hold_id || ev.request_id;
}
