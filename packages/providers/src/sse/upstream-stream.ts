/**
 * The one loop that reads an upstream's SSE stream, for every streaming adapter: events from the
 * shared reader, the vendor's in-stream errors mapped by its error policy, every item checked
 * against the vendor's schema, and the end of the stream told apart from a cut. Each adapter
 * supplies only its format (schema, markers, error shape); nothing is buffered.
 */
import { errors } from '@unigate/contracts';
import type { z } from 'zod';
import type { HttpResponse } from '../http/http-client';
import { parseJson } from '../http/read-json-body';
import { streamFailure } from '../http/transport-errors';
import { upstreamStreamError, type UpstreamErrorPolicy } from '../http/upstream-errors';
import { readSse, type SseEvent } from './sse-reader';

export interface UpstreamStreamFormat<C> {
  /** Names an item in error messages ("stream chunk", or from the item: "message_start event"). */
  what: string | ((json: unknown) => string);
  schema: z.ZodType<C>;
  errorPolicy: UpstreamErrorPolicy;
  /** An event that carries the vendor's error rather than an item. */
  isError(ev: SseEvent, json: unknown): boolean;
  /** The end-of-stream marker (`[DONE]`); what follows it is drained, not read. */
  isEndMarker?(ev: SseEvent): boolean;
  /** The item after which the stream is complete (Anthropic's message_stop). */
  isLast?(item: C): boolean;
  /**
   * A filter for events the vendor may add at any time that we do not know (skipped, not fatal).
   * A factory: the filter may keep state for one stream.
   */
  skipper?(): (json: unknown) => boolean;
  /** True: a body that ends before the marker or last item was cut short (an error). */
  requireEnd: boolean;
}

/**
 * The stream's items as they come. Throws a GatewayError when it fails or is cut, after yielding
 * what came (retryable only while nothing was yielded); when `signal` aborts, throws its reason.
 */
export async function* readUpstreamStream<C>(res: HttpResponse, format: UpstreamStreamFormat<C>, signal?: AbortSignal): AsyncGenerator<C> {
  const skip = format.skipper?.();
  let yielded = 0;
  let done = false;
  try {
    for await (const ev of readSse(res.body)) {
      // The wait on the upstream is up to its first event (what follows streams to the client).
      res.wait?.end();
      // Keep reading after the end so the body completes and the socket goes back to the pool.
      if (done) continue;
      if (format.isEndMarker?.(ev)) {
        done = true;
        continue;
      }
      const json = parseJson(ev.data);
      if (format.isError(ev, json)) throw upstreamStreamError(format.errorPolicy, ev.data, yielded === 0);
      if (skip?.(json)) continue;
      const parsed = format.schema.safeParse(json);
      if (!parsed.success) {
        const why = json === undefined ? 'not JSON' : (parsed.error.issues[0]?.message ?? '');
        const what = typeof format.what === 'string' ? format.what : format.what(json);
        throw errors.upstream(502, `upstream sent an invalid ${what}: ${why}`, yielded === 0);
      }
      yielded++;
      yield parsed.data;
      if (format.isLast?.(parsed.data)) done = true;
    }
  } catch (err) {
    throw streamFailure(err, signal, yielded === 0);
  } finally {
    res.wait?.end();
  }
  if (format.requireEnd && !done) throw errors.upstream(502, 'upstream stream ended unexpectedly', yielded === 0);
}
