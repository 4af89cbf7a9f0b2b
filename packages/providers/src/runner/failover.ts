/**
 * Channel failover, shared by every endpoint: try the route's channels in order and move on only for
 * retryable failures (connection errors, 429, 5xx) — which adapters only raise before anything has
 * reached the caller.
 */
import { GatewayError, type AttemptOutcome, type Channel, type ModelRoute } from '@unigate/contracts';

export type { AttemptOutcome };

/**
 * Told about every upstream attempt (for metrics and logs), with the request it was for and how long
 * it took (ms): to the attempt's result — a whole answer, or a stream's first item — or its failure.
 */
export type AttemptObserver = (
  route: ModelRoute,
  channel: Channel,
  outcome: AttemptOutcome,
  error?: unknown,
  requestId?: string,
  elapsedMs?: number,
) => void;

/**
 * A failure's outcome. A 4xx is about the client's request, not the upstream: the upstream's own 4xx
 * answers carry their status (upstream-errors.ts; those about the channel's credentials or model are
 * retryable 502s), and one without is the adapter's refusal before sending.
 */
function outcomeOf(err: unknown): AttemptOutcome {
  if (!GatewayError.is(err)) return 'error';
  if (err.retryable) return 'retryable_error';
  if (err.status >= 500) return 'error';
  return err.upstreamStatus === undefined ? 'invalid_request' : 'rejected';
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
    const start = performance.now();
    try {
      const result = await attempt(channel);
      observe?.(route, channel, 'ok', undefined, requestId, performance.now() - start);
      return result;
    } catch (err) {
      lastError = err;
      if (signal?.aborted) {
        observe?.(route, channel, 'cancelled', err, requestId, performance.now() - start);
        throw err;
      }
      const retryable = GatewayError.is(err) && err.retryable;
      observe?.(route, channel, outcomeOf(err), err, requestId, performance.now() - start);
      if (!retryable) throw err;
    }
  }
  throw (
    lastError ??
    new GatewayError({ status: 503, code: 'no_channel', type: 'server_error', message: `No upstream channel for ${route.model.id}` })
  );
}
