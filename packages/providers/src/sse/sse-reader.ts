/**
 * Server-Sent Events reader: a response body (any async iterable of bytes, e.g. undici's) in, parsed
 * events out, one at a time as they arrive. Parsing is eventsource-parser's — no string surgery here —
 * and nothing is buffered beyond the events of the chunk just read. Breaking out of the loop stops
 * reading the body (its iterator is returned, which destroys an undici body).
 */
import { createParser } from 'eventsource-parser';

export interface SseEvent {
  /** The `event:` field; undefined for plain `data:` events. */
  event?: string;
  data: string;
  id?: string;
}

export async function* readSse(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<SseEvent> {
  let pending: SseEvent[] = [];
  const parser = createParser({
    onEvent: (e) => {
      pending.push({ event: e.event, data: e.data, id: e.id });
    },
  });
  const decoder = new TextDecoder();
  const drain = () => {
    const ready = pending;
    pending = [];
    return ready;
  };

  for await (const chunk of body) {
    parser.feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    yield* drain();
  }
  const tail = decoder.decode();
  if (tail) parser.feed(tail);
  // An event not terminated by a blank line when the body ends is dropped, as the SSE spec says.
  yield* drain();
}
