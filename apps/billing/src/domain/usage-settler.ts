/**
 * Settlement of `usage.recorded`: the ledger entry (unique by request id), the charge taken from the
 * balance (clamped at zero, the shortfall recorded) and the request's hold deleted — atomically, in
 * one statement per event (settle-one.ts) or one transaction per batch (settle-batch.ts). A
 * redelivered or duplicated event finds its ledger entry and changes nothing.
 */
import { usageRecordedSchema, type UsageRecorded } from '@unigate/contracts';
import type { Logger } from '@unigate/platform';
import type { DataSource } from 'typeorm';
import { settleBatch } from './settle-batch';
import { settleOne, type OneOutcome } from './settle-one';
import { isUuid } from './validate';

export type SettleOutcome = 'settled' | 'duplicate' | 'rejected';

export class UsageSettler {
  constructor(
    private readonly ds: DataSource,
    private readonly logger: Logger,
  ) {}

  /**
   * Handles one event. Events that can never settle (malformed, unknown account) are logged and
   * reported as 'rejected' rather than thrown: redelivering them forever would block the partition.
   * Anything else that fails (the database) throws, so the bus redelivers.
   */
  async handle(payload: unknown): Promise<SettleOutcome> {
    const ev = this.validate(payload);
    return ev ? this.settle(ev) : 'rejected';
  }

  /** One already-validated event, in one statement. */
  async settle(ev: UsageRecorded): Promise<SettleOutcome> {
    return this.report(ev, await settleOne(this.ds, ev));
  }

  /** Handles events in delivery order in one transaction; all or nothing (a throw redelivers the batch). */
  async handleBatch(payloads: unknown[]): Promise<SettleOutcome[]> {
    const valid: Array<{ index: number; ev: UsageRecorded }> = [];
    const outcomes: SettleOutcome[] = payloads.map((p, index) => {
      const ev = this.validate(p);
      if (ev) valid.push({ index, ev });
      return 'rejected';
    });
    if (valid.length === 0) return outcomes;
    // One event: the single statement is one round trip, the batch transaction five.
    const events = valid.map((v) => v.ev);
    const settled = events.length === 1 ? [await settleOne(this.ds, events[0])] : await settleBatch(this.ds, events);
    valid.forEach((v, i) => (outcomes[v.index] = this.report(v.ev, settled[i])));
    return outcomes;
  }

  private validate(payload: unknown): UsageRecorded | null {
    const parsed = usageRecordedSchema.safeParse(payload);
    if (!parsed.success) {
      this.logger.error({ issues: parsed.error.issues, payload }, 'rejecting malformed usage.recorded event');
      return null;
    }
    if (
      !isUuid(parsed.data.account_id) ||
      Number.isNaN(Date.parse(parsed.data.occurred_at)) ||
      !Number.isSafeInteger(parsed.data.cost_micros)
    ) {
      this.logger.error({ event_id: parsed.data.event_id }, 'rejecting usage.recorded event: bad account_id, occurred_at or cost');
      return null;
    }
    return parsed.data;
  }

  private report(ev: UsageRecorded, result: OneOutcome): SettleOutcome {
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
