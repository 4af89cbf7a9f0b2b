/**
 * Writes a Server-Sent Events response straight to the socket, one event per write (no buffering),
 * with a real delay between events, and optionally cuts the connection mid-stream the way a failing
 * upstream does: the socket is destroyed with no final event, so the client sees a truncated body.
 */
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

export interface SseEvent {
  data: string;
  event?: string;
  /** Counts toward `cutAfter` (content-bearing events; not the role preamble or the trailer). */
  counted: boolean;
}

export interface SseWriteOptions {
  /** Delay between consecutive events, ms. */
  delayMs: number;
  /** Destroy the socket once this many counted events have been written. */
  cutAfter?: number;
  headers?: Record<string, string>;
}

export async function writeSse(res: ServerResponse, events: Iterable<SseEvent>, opts: SseWriteOptions): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...opts.headers,
  });
  res.flushHeaders();
  let counted = 0;
  let first = true;
  if (opts.cutAfter === 0) return cut(res);
  for (const ev of events) {
    if (!first && opts.delayMs > 0) await sleep(opts.delayMs);
    first = false;
    if (res.destroyed) return; // the client went away
    const text = ev.event ? `event: ${ev.event}\ndata: ${ev.data}\n\n` : `data: ${ev.data}\n\n`;
    await write(res, text);
    if (ev.counted && ++counted === opts.cutAfter) return cut(res);
  }
  res.end();
}

/**
 * The endless_body fault: `opening` and then the same 64 KiB for as long as the client reads (each
 * write waits for the last to drain), never a closing brace or a line's end.
 */
export async function writeEndless(res: ServerResponse, contentType: string, opening: string): Promise<void> {
  res.writeHead(200, { 'content-type': contentType });
  await write(res, opening);
  const filler = 'a'.repeat(64 * 1024);
  while (!res.destroyed) await write(res, filler);
}

/** Resolves once the chunk is handed to the kernel (or the client is gone), so a cut never drops it. */
function write(res: ServerResponse, text: string): Promise<void> {
  return new Promise((resolve) => {
    const onClose = () => resolve();
    res.once('close', onClose);
    res.write(text, () => {
      res.off('close', onClose);
      resolve();
    });
  });
}

/**
 * Wait `ms` before answering; false when the client went away meanwhile (the timer is dropped then,
 * so a long simulated hang never outlives its request).
 */
export async function holdFor(ms: number, res: ServerResponse): Promise<boolean> {
  if (res.destroyed) return false;
  const gone = new AbortController();
  const onClose = () => gone.abort();
  res.once('close', onClose);
  try {
    await sleep(ms, undefined, { signal: gone.signal });
    return true;
  } catch {
    return false;
  } finally {
    res.off('close', onClose);
  }
}

function cut(res: ServerResponse): void {
  res.destroy();
}
