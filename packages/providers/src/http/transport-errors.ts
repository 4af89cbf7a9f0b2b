/**
 * Failures below HTTP (connect refused, DNS, reset, timeouts) as GatewayErrors. They all happen before
 * an upstream answered, so another channel may well succeed: retryable. An abort the caller asked for
 * is not an upstream failure and is rethrown as the signal's reason.
 */
import { errors, GatewayError } from '@unigate/contracts';

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

export function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The error to throw for `err`, raised while calling an upstream. */
export function transportError(err: unknown, signal: AbortSignal | undefined, what = 'upstream request failed'): unknown {
  if (signal?.aborted) return signal.reason ?? err;
  if (GatewayError.is(err)) return err;
  const code = errorCode(err);
  if (code && TIMEOUT_CODES.has(code)) return errors.upstream(504, `${what}: upstream timed out (${code})`, true);
  return errors.upstream(502, `${what}: ${errorMessage(err)}${code ? ` (${code})` : ''}`, true);
}

/**
 * The error to throw when an upstream stream fails after it began: the caller's abort as its reason, a
 * GatewayError as it is, anything else a 502 — retryable only while nothing has reached the caller.
 */
export function streamFailure(err: unknown, signal: AbortSignal | undefined, nothingYielded: boolean): unknown {
  if (signal?.aborted) return signal.reason ?? err;
  if (GatewayError.is(err)) return err;
  return errors.upstream(502, `upstream stream ended unexpectedly: ${errorMessage(err)}`, nothingYielded);
}
