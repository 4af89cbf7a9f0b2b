/**
 * Channel failover, shared by every endpoint: try the route's channels in order and move on only for
 * retryable failures (connection errors, 429, 5xx) — which adapters only raise before anything has
 * reached the caller.
 */
import { GatewayError, type AttemptOutcome, type Channel, type ModelRoute } from '@unigate/contracts';

export type { AttemptOutcome };

/** Told about every upstream attempt (for metrics and logs), with the request it was for. */
export type AttemptObserver = (route: ModelRoute, channel: Channel, outcome: AttemptOutcome, error?: unknown, requestId?: string) => void;

/**
 * A failure's outcome. A 4xx that carries no upstream status is the adapter's own refusal (the
 * upstream's 4xx answers carry theirs, upstream-errors.ts): the client's request, not the upstream.
 */
function outcomeOf(err: unknown): AttemptOutcome {
  if (!GatewayError.is(err)) return 'error';
  if (err.retryable) return 'retryable_error';
  return err.status < 500 && err.upstreamStatus === undefined ? 'invalid_request' : 'error';
}

export async function withFailover<T>(
  route: ModelRoute,
  attempt: (channel: Channel) => Promise<T>,
  observe?: AttemptObserver,
  signal?: AbortSignal,
  requestId?: string,
): Promise<T> {
  let lastError: unknown;
  for (const channel of route.channels) {
    try {
      const result = await attempt(channel);
      observe?.(route, channel, 'ok', undefined, requestId);
      return result;
    } catch (err) {
      lastError = err;
      if (signal?.aborted) {
        observe?.(route, channel, 'cancelled', err, requestId);
        throw err;
      }
      const retryable = GatewayError.is(err) && err.retryable;
      observe?.(route, channel, outcomeOf(err), err, requestId);
      if (!retryable) throw err;
    }
  }
  throw (
    lastError ??
    new GatewayError({ status: 503, code: 'no_channel', type: 'server_error', message: `No upstream channel for ${route.model.id}` })
  );
}
