/**
 * Reservations: the one atomic step that admits a request — the key's rate and concurrency limits
 * (docs/limits.md) and a hold of the request's worst-case cost against the account's available
 * money (docs/billing.md). A request is either admitted (counted against both limits, its money
 * reserved) or refused (429 or 402) with nothing recorded. Two stores implement it with the same
 * semantics: Redis, one Lua call per admission, shared by every edge replica (distributed); process
 * memory, where one process is the whole truth (standalone).
 */
import { errors, GatewayError, type AccountMoney, type KeyPrincipal } from '@unigate/contracts';
import { processIds } from '@unigate/platform';

export type { AccountMoney };

export interface AdmitRequest {
  principal: KeyPrincipal;
  request_id: string;
  /** The worst-case cost to reserve; 0 reserves nothing (limits only). */
  amount_micros: number;
  /**
   * For money held for work that outlives the call (a video task, which another service carries on):
   * the hold is placed for this long at once and survives the process that placed it. Without it the
   * hold follows holdLife's default: a lease TTL while its call runs, DEFAULT_HOLD_TTL_MS after.
   */
  ttl_seconds?: number;
}

/** The hold an admission of `req` places: the request's id, or null when it reserves nothing. */
export function holdIdOf(req: Pick<AdmitRequest, 'request_id' | 'amount_micros'>): string | null {
  return req.amount_micros > 0 ? req.request_id : null;
}

export interface Admitted {
  /** The hold the call is settled against (holdIdOf: the request id); null when nothing was reserved. */
  readonly holdId: string | null;
  /**
   * The call failed without producing anything billable: the hold goes back. Idempotent; never
   * rejects (a hold that cannot be given back expires). Callers need not wait for it.
   */
  refund(): Promise<void>;
  /**
   * The call ended and costs `costMicros`, which billing charges when it settles the hold from the
   * usage event: until then only that much stays reserved (0 gives the hold back). Never grows a
   * hold, and leaves one already settled alone; Redis skips it for an account with plenty of money
   * left (shrinkPaysOff). Never rejects (the hold then waits for billing); callers need not wait.
   */
  shrinkTo(costMicros: number): Promise<void>;
  /** The request is over: its concurrency slot goes back. Idempotent; never rejects; no need to wait. */
  finish(): Promise<void>;
}

export interface Reservations {
  /** Throws 429 `Throttling.RateQuota`, 402 when the balance is short, 503 when the store is unreachable. */
  admit(req: AdmitRequest): Promise<Admitted>;
  /** Gives a hold back untouched (a call that failed later, e.g. a video task). Idempotent. */
  release(accountId: string, holdId: string): Promise<void>;
  /** Readiness: resolves when the store answers. */
  checkReady(): Promise<void>;
  /** Stops slot heartbeats and lets go of the store; slots still held expire by their TTL. */
  close(): Promise<void>;
}

/** Reads an account's money from the ledger (the truth); null when the account does not exist. */
export type AccountMoneyLoader = (accountId: string) => Promise<AccountMoney | null>;

export interface ReservationOptions {
  /** Length of the sliding rate window in ms: 60 000, since the limit is per minute. Tests shorten it. */
  windowMs?: number;
  /**
   * How long a running call's concurrency slot and hold live without a keep-alive from the process
   * serving it (default DEFAULT_LEASE_TTL_MS; UNIGATE_LEASE_TTL_MS on the edge): what a process that
   * died held comes back this long after, at most. Keep-alives go every third of it.
   */
  leaseTtlMs?: number;
}

export const DEFAULT_WINDOW_MS = 60_000;

// 48 random bits per process and a counter: a lease id is unique even when a request id repeats
// (a retried request).
const nextLease = processIds(6);

/** A concurrency slot's id: the request's id, this process and a sequence. */
export function leaseIdFor(requestId: string): string {
  return `${requestId}.${nextLease()}`;
}
export const DEFAULT_LEASE_TTL_MS = 60_000;
/**
 * A finished call's hold keeps its money reserved this long for billing to settle it from the usage
 * event (a lagging billing must not see it spent twice), then the money returns.
 */
export const DEFAULT_HOLD_TTL_MS = 10 * 60_000;
/** The longest hold a caller may ask for (a video task that runs for hours still settles inside it). */
export const MAX_HOLD_TTL_SECONDS = 7 * 24 * 3600;
/** Nobody can say when an in-flight request will end; one second is a polite retry hint. */
export const CONCURRENCY_RETRY_AFTER_S = 1;

/**
 * Shrinking a finished call's hold costs a Redis call per request; it pays off only for an account
 * whose next calls could run short of money before billing settles this one (≤ 50 ms, longer while
 * billing lags). An account with at least this many such worst cases still available after the hold
 * would need that many calls to finish within that delay first, so its holds are left to billing.
 */
export const SHRINK_BELOW_WORST_CASES = 256;

/** Whether a call's hold of `amount` should shrink when it ends, given the money left after it (< 0: not known). */
export function shrinkPaysOff(leftAfterHold: number, amount: number): boolean {
  return leftAfterHold < 0 || leftAfterHold < amount * SHRINK_BELOW_WORST_CASES;
}

export interface HoldLife {
  /** The hold's TTL when placed, and how far each keep-alive pushes it out while its call runs. */
  runningMs: number;
  /** What it gets once its call ended, awaiting settlement (running-holds.ts). */
  endedMs: number;
}

/**
 * How a hold lives. By default its call's process keeps it alive: a lease TTL while the call runs, so
 * that a process that dies gives its calls' money back within that, then DEFAULT_HOLD_TTL_MS for
 * billing to settle it. A hold asked for `ttlSeconds` (work that outlives the call) has that from the
 * start, whatever becomes of the process.
 */
export function holdLife(ttlSeconds: number | undefined, leaseTtlMs: number): HoldLife {
  if (!ttlSeconds) return { runningMs: Math.min(leaseTtlMs, DEFAULT_HOLD_TTL_MS), endedMs: DEFAULT_HOLD_TTL_MS };
  const ms = Math.min(Math.max(1, Math.floor(ttlSeconds)), MAX_HOLD_TTL_SECONDS) * 1000;
  return { runningMs: ms, endedMs: ms };
}

/** Keep-alives (slot heartbeats, the running holds' sweep) go every third of the lease TTL: two may fail. */
export function keepAliveEvery(leaseTtlMs: number): number {
  return Math.max(1, Math.floor(leaseTtlMs / 3));
}

/** null, undefined or non-positive → 0, "no limit". */
export function limitOf(v: number | null | undefined): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0;
}

export function rateExceeded(rpm: number, retryAfterMs: number): GatewayError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return errors.rateLimited(
    `Rate limit reached for this API key: ${rpm} request${rpm === 1 ? '' : 's'} per minute. Retry in ${seconds} s.`,
    seconds,
  );
}

export function concurrencyExceeded(max: number): GatewayError {
  return errors.rateLimited(
    `Concurrency limit reached for this API key: ${max} request${max === 1 ? '' : 's'} already in flight. Retry when one finishes.`,
    CONCURRENCY_RETRY_AFTER_S,
  );
}

/** The store did not answer: we refuse rather than admit unchecked (docs/limits.md, failure mode). */
export function reservationsUnavailable(): GatewayError {
  return new GatewayError({
    status: 503,
    code: 'limits_unavailable',
    type: 'server_error',
    message: 'The rate limiter is temporarily unavailable; please retry shortly.',
    retryable: true,
    retryAfter: 1,
  });
}

/** An account the store cannot find in the ledger: its key outlived it. */
export function unknownAccount(accountId: string): GatewayError {
  return errors.notFound(`Account ${accountId}`);
}

const DONE = Promise.resolve();

/** `fn` run once, however often the result is called; every call gets the same settled promise. */
export function once(fn: () => Promise<void> | void): () => Promise<void> {
  let result: Promise<void> | undefined;
  return () => (result ??= Promise.resolve(fn()).catch(() => undefined));
}

/** What a request that reserved nothing and holds no slot gives back: nothing. */
export const NOTHING_TO_GIVE_BACK = () => DONE;

/** The admission of a request that reserved nothing and holds no slot. */
export const NOTHING_ADMITTED: Admitted = {
  holdId: null,
  refund: NOTHING_TO_GIVE_BACK,
  shrinkTo: NOTHING_TO_GIVE_BACK,
  finish: NOTHING_TO_GIVE_BACK,
};
