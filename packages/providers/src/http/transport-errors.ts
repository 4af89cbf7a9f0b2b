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

/**
 * What a failure below HTTP was, in words a client may read. The system's own message names the
 * upstream's address ("connect ECONNREFUSED 10.0.3.7:443", "getaddrinfo ENOTFOUND llm.internal"):
 * that is the operator's, and goes to the log with the error's cause.
 */
function failureWords(code: string | undefined): string {
  if (code && TIMEOUT_CODES.has(code)) return 'the upstream timed out';
  switch (code) {
    case 'ECONNREFUSED':
      return 'the upstream refused the connection';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return "the upstream's host name did not resolve";
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return 'the upstream closed the connection';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'the upstream could not be reached';
    default:
      return 'the connection to the upstream failed';
  }
}

/** An upstream GatewayError carrying the system error it stands for, for the log. */
function withCause(error: GatewayError, cause: unknown): GatewayError {
  Object.defineProperty(error, 'cause', { value: cause, enumerable: false, configurable: true });
  return error;
}

/** The error to throw for `err`, raised while calling an upstream. */
export function transportError(err: unknown, signal: AbortSignal | undefined, what = 'upstream request failed'): unknown {
  if (signal?.aborted) return signal.reason ?? err;
  if (GatewayError.is(err)) return err;
  const code = errorCode(err);
  if (code && TIMEOUT_CODES.has(code)) return withCause(errors.upstream(504, `${what}: upstream timed out (${code})`, true), err);
  return withCause(errors.upstream(502, `${what}: ${failureWords(code)}${code ? ` (${code})` : ''}`, true), err);
}

/**
 * The error to throw when an upstream stream fails after it began: the caller's abort as its reason, a
 * GatewayError as it is, anything else a 502 — retryable only while nothing has reached the caller.
 */
export function streamFailure(err: unknown, signal: AbortSignal | undefined, nothingYielded: boolean): unknown {
  if (signal?.aborted) return signal.reason ?? err;
  if (GatewayError.is(err)) return err;
  const code = errorCode(err);
  return withCause(
    errors.upstream(502, `upstream stream ended unexpectedly: ${failureWords(code)}${code ? ` (${code})` : ''}`, nothingYielded),
    err,
  );
}
