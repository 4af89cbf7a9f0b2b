/**
 * Streams an async iterable to the client as it comes, without buffering: each item is written as it
 * arrives (items that arrive together in one write), backpressure is respected, and a client that goes away aborts the source. The first item
 * is awaited before any header is sent, so a failure before the first byte still gets a proper HTTP
 * status and error body. Server-Sent Events and raw bytes (audio) are the two framings.
 */
import type { FastifyReply } from 'fastify';

export interface StreamReplyOptions<T> {
  open: (signal: AbortSignal) => AsyncIterable<T>;
  /** Headers of the answer (the content type), beside those already set on the reply. */
  headers: Record<string, string>;
  /** An item as it goes on the wire. */
  frame: (item: T) => string | Uint8Array;
  /** Written after the last item. */
  trailer?: string;
  /**
   * A failure after the stream began (`sent` items went out): what to write before closing; undefined
   * cuts the connection.
   */
  failure: (err: unknown, sent: number) => string | undefined;
  /** Runs once the first item is in, just before the headers go out (to stamp timing headers). */
  beforeHeaders?: () => void;
  /** A failure before the first byte: the caller answers with a normal error response (unless the client left). */
  onEarlyError: (err: unknown) => Promise<unknown> | unknown;
}

export async function streamReply<T>(reply: FastifyReply, opts: StreamReplyOptions<T>): Promise<void> {
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
    // A client that left before the first item has nobody to read an answer, and the failure is only
    // the abort its leaving caused: not an error of the gateway.
    if (!abort.signal.aborted) await opts.onEarlyError(err);
    return;
  }
  opts.beforeHeaders?.();
  reply.hijack();
  raw.writeHead(reply.statusCode, { ...(reply.getHeaders() as Record<string, string>), ...opts.headers });
  let cut = false;
  let sent = 0;
  // Items that arrive together (one upstream read, one gRPC message batch) leave in one socket write:
  // the socket stays corked until the event loop has nothing more to run for this stream right now.
  let corked = false;
  const uncork = () => {
    corked = false;
    raw.uncork();
  };
  const write = (chunk: string | Uint8Array) => {
    // The headers and the first item go out at once: the time to first byte never waits.
    if (!corked && sent > 0) {
      corked = true;
      raw.cork();
      setImmediate(uncork);
    }
    return raw.write(chunk);
  };
  try {
    let next = first;
    while (!next.done) {
      if (abort.signal.aborted) break;
      const flushed = write(opts.frame(next.value));
      sent++;
      if (!flushed) await drained(raw, abort.signal);
      next = await iterator.next();
    }
    if (!abort.signal.aborted && opts.trailer) write(opts.trailer);
  } catch (err) {
    if (!abort.signal.aborted) {
      const failure = opts.failure(err, sent);
      if (failure === undefined) cut = true;
      else raw.write(failure);
    }
  } finally {
    raw.off('close', onClose);
    if (abort.signal.aborted) await iterator.return?.().catch(() => undefined);
    // A binary answer that broke off must not look complete: cut the connection instead of ending it.
    if (cut) raw.destroy();
    else raw.end();
  }
}

/** Server-Sent Events framing. */
export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
};

export function sseFrame(event: string | undefined, data: string): string {
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
