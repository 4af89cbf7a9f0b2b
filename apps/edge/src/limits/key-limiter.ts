/**
 * Per-key request limits (docs/limits.md): `rate_limit_rpm` (requests admitted in any sliding
 * 60-second window) and `max_concurrency` (requests in flight). Both are checked and recorded in one
 * atomic step, so a request is either admitted and counted against both limits, or rejected and
 * counted against neither. Redis backs it in distributed mode (exact across edge replicas), process
 * memory in standalone; the semantics are the same.
 */
import { errors, GatewayError, type KeyPrincipal } from '@unigate/contracts';

/** A concurrency slot held by one admitted request. */
export interface Lease {
  /** Gives the slot back. Idempotent, never rejects: a slot that cannot be returned expires by itself. */
  release(): Promise<void>;
}

export interface KeyLimiter {
  /**
   * Admits the request or throws: 429 `Throttling.RateQuota` with a Retry-After when a limit is
   * reached, 503 `limits_unavailable` when the limit store cannot be asked (fail closed). A key
   * without limits is admitted without any round trip.
   */
  acquire(principal: KeyPrincipal, requestId: string): Promise<Lease>;
  /** Readiness: resolves when the limit store answers. */
  checkReady(): Promise<void>;
  /** Stops lease heartbeats and lets go of the store; leases still held expire by their TTL. */
  close(): Promise<void>;
}

export interface KeyLimiterOptions {
  /** Length of the sliding rate window in ms: 60 000, since the limit is per minute. Tests shorten it. */
  windowMs?: number;
  /** How long a concurrency slot lives without a heartbeat; holders refresh it every third of this. */
  leaseTtlMs?: number;
}

export const DEFAULT_WINDOW_MS = 60_000;
export const DEFAULT_LEASE_TTL_MS = 5 * 60_000;
/** Nobody can say when an in-flight request will end; one second is a polite retry hint. */
export const CONCURRENCY_RETRY_AFTER_S = 1;

/** Nest injection token of the edge's KeyLimiter. */
export const KEY_LIMITER = Symbol('KEY_LIMITER');

/** The lease of a request that holds no slot (no concurrency limit, or nothing to give back). */
export const NO_LEASE: Lease = Object.freeze({ release: () => Promise.resolve() });

export function hasLimits(p: KeyPrincipal): boolean {
  return limitOf(p.rate_limit_rpm) > 0 || limitOf(p.max_concurrency) > 0;
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

/** The limit store did not answer: we refuse rather than admit unchecked (docs/limits.md, failure mode). */
export function limitsUnavailable(): GatewayError {
  return new GatewayError({
    status: 503,
    code: 'limits_unavailable',
    type: 'server_error',
    message: 'The rate limiter is temporarily unavailable; please retry shortly.',
    retryable: true,
    retryAfter: 1,
  });
}
