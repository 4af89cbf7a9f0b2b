/**
 * Holds: reserve a request's worst-case cost before any upstream call, so concurrent requests can
 * never spend more than the balance. The hot path is ONE autocommit statement per hold and per
 * release (docs/billing.md explains the design and why it is race-free):
 *
 * - place: lock the account row only if `balance − reserved ≥ amount`, and insert the hold; the
 *   holds trigger adds the amount to `reserved_micros` before the row lock is released. A concurrent
 *   hold waits on the row lock and then re-checks the condition against the row as committed (READ
 *   COMMITTED re-evaluates the WHERE of a locking read on the newest row version), so holds on one
 *   account are admitted strictly one after the other, without any transaction round trips.
 * - release: lock the hold's account, delete the hold; the trigger subtracts it.
 *
 * Only when the statement placed nothing does a second read tell apart a replayed request (same
 * hold returned), an unknown account (404), expired holds worth reclaiming (swept, then retried) and
 * a real shortfall (402).
 */
import { randomUUID } from 'node:crypto';
import { errors, type HoldRequest } from '@unigate/contracts';
import { parseBigint, preparedStatement } from '@unigate/platform';
import type { DataSource } from 'typeorm';
import { run } from './account-queries';
import { sweepExpiredHolds } from './hold-sweeper';
import { isUuid, requireMicros } from './validate';

export const DEFAULT_HOLD_TTL_MS = 10 * 60 * 1000;

/** Insert attempts before a 402: the first, one after reclaiming expired holds, one after a concurrent release. */
const PLACE_ATTEMPTS = 3;

const PLACE = preparedStatement(
  'billing_place_hold',
  `
  WITH acc AS MATERIALIZED (
    SELECT a.id FROM billing.accounts a
    WHERE a.id = $1 AND a.balance_micros - a.reserved_micros >= $5
    FOR UPDATE
  ), placed AS (
    INSERT INTO billing.holds (id, account_id, key_id, request_id, amount_micros, expires_at)
    -- The database clock, like every expiry comparison, so replica clock skew cannot matter.
    SELECT $2, acc.id, $3, $4, $5, now() + make_interval(secs => $6::float8) FROM acc
    ON CONFLICT (request_id) DO NOTHING
    RETURNING id
  )
  SELECT id FROM placed`,
);

const WHY_NOT = preparedStatement(
  'billing_hold_refused',
  `
  SELECT (SELECT h.id FROM billing.holds h WHERE h.request_id = $2) AS existing,
         (a.balance_micros - a.reserved_micros)::text AS available,
         EXISTS (SELECT 1 FROM billing.holds x WHERE x.account_id = a.id AND x.expires_at <= now()) AS has_expired
  FROM (SELECT 1) AS one LEFT JOIN billing.accounts a ON a.id = $1`,
);

const RELEASE = preparedStatement(
  'billing_release_hold',
  `
  WITH acc AS MATERIALIZED (
    -- The account row first: the lock order every money statement follows (no deadlocks).
    SELECT a.id FROM billing.accounts a
    WHERE a.id = (SELECT h.account_id FROM billing.holds h WHERE h.id = $1)
    FOR UPDATE
  ), released AS (
    DELETE FROM billing.holds h USING acc WHERE h.id = $1 AND h.account_id = acc.id RETURNING h.id
  )
  SELECT count(*)::int AS released FROM released`,
);

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
    if (!isUuid(req.account_id)) throw errors.notFound(`Account ${req.account_id}`);
    const id = randomUUID();
    let available = 0;
    for (let attempt = 1; attempt <= PLACE_ATTEMPTS; attempt++) {
      const placed = await run(this.ds, PLACE, [req.account_id, id, req.key_id, req.request_id, req.amount_micros, this.ttlMs / 1000]);
      if (placed.length === 1) return { hold_id: id };

      const [why] = await run<{ existing: string | null; available: string | null; has_expired: boolean | null }>(this.ds, WHY_NOT, [
        req.account_id,
        req.request_id,
      ]);
      if (why.existing) return { hold_id: why.existing };
      if (why.available === null) throw errors.notFound(`Account ${req.account_id}`);
      available = parseBigint(why.available);
      if (why.has_expired) {
        // Holds whose owners died still sit in the counter until swept: reclaim them, then retry.
        await sweepExpiredHolds(this.ds, req.account_id);
        continue;
      }
      // Money came back between the two statements (a release, a settlement): try again.
      if (available >= req.amount_micros) continue;
      break;
    }
    throw errors.insufficientBalance(req.amount_micros, available);
  }

  /** Gives the hold back untouched. Unknown or already released holds are fine (idempotent). */
  async releaseHold(holdId: string): Promise<void> {
    if (!isUuid(holdId)) return;
    await run(this.ds, RELEASE, [holdId]);
  }
}
