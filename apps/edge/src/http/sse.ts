/**
 * Streams an async iterable to the client as Server-Sent Events without buffering: each item is
 * written as it arrives, backpressure is respected, and a client that goes away aborts the source.
 * The first item is awaited before any header is sent, so a failure before the first byte still
 * gets a proper HTTP status and error body.
 */
import type { FastifyReply } from 'fastify';

export interface SseOptions<T> {
  open: (signal: AbortSignal) => AsyncIterable<T>;
  /** Render an item as the data payload. */
  encode: (item: T) => string;
  /** The SSE `event:` name of an item (Anthropic names every event; OpenAI names none). */
  eventName?: (item: T) => string;
  /** The `event:` name of the error written when the stream fails after it began. */
  errorEventName?: string;
  /** Written after the last item (`[DONE]` for OpenAI). */
  terminator?: string;
  /** A failure after the stream began: what to write before closing. */
  encodeError: (err: unknown) => string;
  /** Runs once the first item is in, just before the headers go out (to stamp timing headers). */
  beforeHeaders?: () => void;
  /** A failure before the first byte: the caller answers with a normal error response. */
  onEarlyError: (err: unknown) => Promise<unknown> | unknown;
}

export async function streamSse<T>(reply: FastifyReply, opts: SseOptions<T>): Promise<void> {
  const abort = new AbortController();
  const raw = reply.raw;
  const onClose = () => {
    if (!raw.writableFinished) abort.abort();
  };
  raw.on('close', onClose);
  const iterator = opts.open(abort.signal)[Symbol.asyncIterator]();
  let first: IteratorResult<T>;
  try {
    first = await iterator.next();
  } catch (err) {
    raw.off('close', onClose);
    await opts.onEarlyError(err);
    return;
  }
  opts.beforeHeaders?.();
  reply.hijack();
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  try {
    let next = first;
    while (!next.done) {
      if (abort.signal.aborted) break;
      if (!raw.write(frame(opts.eventName?.(next.value), opts.encode(next.value)))) await drained(raw, abort.signal);
      next = await iterator.next();
    }
    if (!abort.signal.aborted && opts.terminator) raw.write(`data: ${opts.terminator}\n\n`);
  } catch (err) {
    if (!abort.signal.aborted) raw.write(frame(opts.errorEventName, opts.encodeError(err)));
  } finally {
    raw.off('close', onClose);
    if (abort.signal.aborted) await iterator.return?.().catch(() => undefined);
    raw.end();
  }
}

function frame(event: string | undefined, data: string): string {
  return event ? `event: ${event}\ndata: ${data}\n\n` : `data: ${data}\n\n`;
}

function drained(raw: NodeJS.WritableStream, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      raw.off('drain', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    raw.once('drain', done);
    signal.addEventListener('abort', done, { once: true });
  });
}
