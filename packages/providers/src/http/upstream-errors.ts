/**
 * The one mapping of upstream failures to GatewayErrors, shared by every adapter; each vendor
 * supplies only how to read its error body (an UpstreamErrorPolicy).
 *
 * - 429, 5xx and 529 (overloaded) are the upstream's trouble: retryable on another channel,
 *   rendered 502/503/504 when every channel failed (a 429 or 529 as 503, with the upstream's
 *   Retry-After).
 * - 401/403, and whatever the vendor says means "bad credentials" or "unknown model" (the policy),
 *   are the channel's configuration, not the client's request: a retryable 502 that does not pass
 *   on the vendor's wording about keys.
 * - Any other 4xx is about the request itself: the same status, the upstream's message and code.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { errors, GatewayError } from '@unigate/contracts';
import { parseJson } from './read-json-body';

const MAX_MESSAGE = 1000;

export interface UpstreamErrorDetail {
  message?: string;
  code?: string;
  param?: string | null;
  /** The vendor says the channel's key is wrong (some answer 400 for that). */
  credentialsRejected?: boolean;
  /** The vendor says it is overloaded. */
  overloaded?: boolean;
}

export interface UpstreamErrorPolicy {
  /** What the vendor's error body says; undefined when the body is not in its error shape. */
  detail(json: unknown): UpstreamErrorDetail | undefined;
  /** Statuses that mean the channel serves no such model (Gemini's 404): retryable 502. */
  channelStatuses?: readonly number[];
}

/** Whether another channel may succeed where this status failed. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

export function upstreamHttpError(
  policy: UpstreamErrorPolicy,
  status: number,
  bodyText: string,
  headers: IncomingHttpHeaders = {},
): GatewayError {
  const d = policy.detail(parseJson(bodyText)) ?? {};
  const message = d.message ?? (bodyText.trim().slice(0, MAX_MESSAGE) || `upstream answered HTTP ${status}`);
  // The upstream's wait reaches the client as Retry-After, which the official SDKs honour.
  const answer = { upstreamStatus: status, retryAfter: retryAfterSeconds(headers) };
  if (status === 529 || d.overloaded) return errors.upstream(503, message, true, answer);
  if (isRetryableStatus(status)) return errors.upstream(status, message, true, answer);
  if (status === 401 || status === 403 || d.credentialsRejected) {
    return errors.upstream(502, `upstream rejected the gateway's credentials for this channel (HTTP ${status})`, true);
  }
  if (policy.channelStatuses?.includes(status))
    return errors.upstream(502, `upstream does not serve this channel's model: ${message}`, true);
  return new GatewayError({ status, code: d.code ?? 'upstream_rejected', message, param: d.param ?? null, upstreamStatus: status });
}

/** Longest upstream wait passed on: past it a client is better off failing than waiting. */
const MAX_RETRY_AFTER_S = 600;

/**
 * The wait an upstream asked for, in whole seconds: `retry-after-ms` (OpenAI), else `retry-after` as
 * seconds or an HTTP date. Undefined when it gave none or none that makes sense.
 */
export function retryAfterSeconds(headers: IncomingHttpHeaders, now = Date.now()): number | undefined {
  const ms = Number(headers['retry-after-ms']);
  const raw = headers['retry-after'];
  const wait = headers['retry-after-ms'] !== undefined && Number.isFinite(ms) ? ms : raw === undefined ? NaN : retryAfterMs(raw, now);
  if (!Number.isFinite(wait) || wait < 0 || wait > MAX_RETRY_AFTER_S * 1000) return undefined;
  return Math.max(1, Math.ceil(wait / 1000));
}

function retryAfterMs(value: string, now: number): number {
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value) * 1000;
  return Date.parse(value) - now;
}

/** An error reported inside a stream; `retryable` only while nothing reached the caller. */
export function upstreamStreamError(policy: UpstreamErrorPolicy, data: string, retryable: boolean): GatewayError {
  const d = policy.detail(parseJson(data));
  return errors.upstream(d?.overloaded ? 503 : 502, d?.message ?? `upstream stream failed: ${data.slice(0, MAX_MESSAGE)}`, retryable);
}

/** A code that may come as a string or a number, as a string. */
export function codeString(v: string | number | null | undefined): string | undefined {
  return v === null || v === undefined ? undefined : String(v);
}
