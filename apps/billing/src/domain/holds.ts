/**
 * Holds: reserve a request's worst-case cost before any upstream call, so concurrent requests can
 * never spend more than the balance. available = balance − unexpired holds, computed under the
 * account's row lock, so two holds on one account are decided one after the other.
 */
import { randomUUID } from 'node:crypto';
import { errors, type HoldRequest } from '@unigate/contracts';
import type { DataSource } from 'typeorm';
import { lockAccount, reservedMicros } from './account-queries';
import { HoldEntity } from './entities';
import { isUuid, requireMicros } from './validate';

export const DEFAULT_HOLD_TTL_MS = 10 * 60 * 1000;

export class HoldService {
  constructor(
    private readonly ds: DataSource,
    /** After this a hold stops counting, returning its money to "available" if its owner died. */
    private readonly ttlMs = DEFAULT_HOLD_TTL_MS,
  ) {}

  /** Idempotent by request id: placing the hold of a request again returns the existing hold. */
  async placeHold(req: HoldRequest): Promise<{ hold_id: string }> {
    requireMicros(req.amount_micros, 'amount_micros');
    if (!req.request_id) throw errors.invalidRequest('request_id is required', 'request_id');
    return this.ds.transaction(async (m) => {
      const account = await lockAccount(m, req.account_id);
      const existing = await m.findOneBy(HoldEntity, { requestId: req.request_id });
      if (existing) return { hold_id: existing.id };

      // Expired holds no longer count; sweep this account's while we hold its lock anyway.
      await m.createQueryBuilder().delete().from(HoldEntity).where('account_id = :id AND expires_at <= now()', { id: account.id }).execute();
      const available = account.balanceMicros - (await reservedMicros(m, account.id));
      if (req.amount_micros > available) throw errors.insufficientBalance(req.amount_micros, available);

      const id = randomUUID();
      await m
        .createQueryBuilder()
        .insert()
        .into(HoldEntity)
        .values({
          id,
          accountId: account.id,
          keyId: req.key_id,
          requestId: req.request_id,
          amountMicros: req.amount_micros,
          // The database clock, like every expiry comparison, so replica clock skew cannot matter.
          expiresAt: () => `now() + make_interval(secs => ${this.ttlMs / 1000})`,
        })
        .execute();
      return { hold_id: id };
    });
  }

  /** Gives the hold back untouched. Unknown or already released holds are fine (idempotent). */
  async releaseHold(holdId: string): Promise<void> {
    if (!isUuid(holdId)) return;
    await this.ds.manager.delete(HoldEntity, { id: holdId });
  }
}
