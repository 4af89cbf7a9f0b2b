/**
 * Settlement of `usage.recorded`: in ONE transaction, insert the ledger entry (unique by request id),
 * take the cost from the balance (clamped at zero, the shortfall recorded) and delete the request's
 * hold. A redelivered or duplicated event finds its ledger entry and changes nothing.
 */
import { randomUUID } from 'node:crypto';
import { usageRecordedSchema, type UsageRecorded } from '@unigate/contracts';
import type { Logger } from '@unigate/platform';
import type { DataSource } from 'typeorm';
import { lockAccountOrNull } from './account-queries';
import { AccountEntity, HoldEntity, LedgerEntryEntity } from './entities';
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
    const parsed = usageRecordedSchema.safeParse(payload);
    if (!parsed.success) {
      this.logger.error({ issues: parsed.error.issues, payload }, 'rejecting malformed usage.recorded event');
      return 'rejected';
    }
    if (!isUuid(parsed.data.account_id) || Number.isNaN(Date.parse(parsed.data.occurred_at))) {
      this.logger.error({ event_id: parsed.data.event_id }, 'rejecting usage.recorded event: bad account_id or occurred_at');
      return 'rejected';
    }
    return this.settle(parsed.data);
  }

  async settle(ev: UsageRecorded): Promise<SettleOutcome> {
    return this.ds.transaction(async (m) => {
      // The account lock comes first, as in placeHold: one lock order, no deadlocks.
      const account = await lockAccountOrNull(m, ev.account_id);
      if (!account) {
        this.logger.error({ event_id: ev.event_id, account_id: ev.account_id }, 'rejecting usage for an unknown account');
        return 'rejected';
      }
      const charged = Math.min(ev.cost_micros, account.balanceMicros);
      const balanceAfter = account.balanceMicros - charged;
      const inserted = await m
        .createQueryBuilder()
        .insert()
        .into(LedgerEntryEntity)
        .values({
          id: randomUUID(),
          accountId: account.id,
          requestId: ev.request_id,
          eventId: ev.event_id,
          keyId: ev.key_id,
          model: ev.model,
          kind: ev.kind,
          inputTokens: ev.units.input_tokens,
          cachedInputTokens: ev.units.cached_input_tokens,
          outputTokens: ev.units.output_tokens,
          costMicros: ev.cost_micros,
          chargedMicros: charged,
          balanceAfterMicros: balanceAfter,
          occurredAt: new Date(ev.occurred_at),
        })
        .orIgnore()
        .returning('id')
        .execute();
      if (inserted.raw.length === 0) return 'duplicate';

      if (charged > 0) await m.update(AccountEntity, { id: account.id }, { balanceMicros: balanceAfter });
      if (charged < ev.cost_micros) {
        this.logger.warn(
          { request_id: ev.request_id, account_id: account.id, cost_micros: ev.cost_micros, charged_micros: charged },
          'usage cost exceeded the balance; clamped at zero',
        );
      }
      const hold = m.createQueryBuilder().delete().from(HoldEntity).where('account_id = :acc', { acc: account.id });
      if (ev.hold_id && isUuid(ev.hold_id)) hold.andWhere('(id = :hold OR request_id = :req)', { hold: ev.hold_id, req: ev.request_id });
      else hold.andWhere('request_id = :req', { req: ev.request_id });
      await hold.execute();
      return 'settled';
    });
  }
}
