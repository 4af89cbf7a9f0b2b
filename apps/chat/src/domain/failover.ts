/**
 * Channel failover, shared by every call kind: try the route's channels in order and move on only
 * for retryable failures (connection errors, 429, 5xx) — which callers only raise before anything
 * has reached the client.
 */
import { GatewayError, type Channel, type ModelRoute } from '@unigate/contracts';
import { upstreamRequests, type Logger } from '@unigate/platform';

export async function withFailover<T>(
  route: ModelRoute,
  requestId: string,
  logger: Logger,
  attempt: (channel: Channel) => Promise<T>,
): Promise<T> {
  let lastError: unknown;
  for (const channel of route.channels) {
    const labels = { model: route.model.id, channel: channel.id };
    try {
      const result = await attempt(channel);
      upstreamRequests.inc({ ...labels, outcome: 'ok' });
      return result;
    } catch (err) {
      lastError = err;
      const retryable = GatewayError.is(err) && err.retryable;
      upstreamRequests.inc({ ...labels, outcome: retryable ? 'retryable_error' : 'error' });
      logger.warn({ request_id: requestId, channel: channel.id, err: describe(err) }, 'upstream attempt failed');
      if (!retryable) throw err;
    }
  }
  throw lastError ?? new GatewayError({ status: 503, code: 'no_channel', type: 'server_error', message: `No upstream channel for ${route.model.id}` });
}

/** Start a stream and wait for its first item, so a failure before the first byte can still fail over. */
export async function openStream<T>(source: AsyncIterable<T>): Promise<AsyncIterable<T>> {
  const it = source[Symbol.asyncIterator]();
  const first = await it.next();
  return (async function* () {
    if (first.done) return;
    yield first.value;
    try {
      for (;;) {
        const next = await it.next();
        if (next.done) return;
        yield next.value;
      }
    } finally {
      await it.return?.();
    }
  })();
}

export function describe(err: unknown) {
  return err instanceof Error ? { name: err.name, message: err.message } : String(err);
}
