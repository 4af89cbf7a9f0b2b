/**
 * Server-Sent Events reader: a response body (any async iterable of bytes, e.g. undici's) in, parsed
 * events out, one at a time as they arrive. Parsing is eventsource-parser's; the only string surgery
 * here is cutting the text into lines (below), and nothing is buffered beyond the events of the chunk
 * just read and the line it ends in. Breaking out of the loop stops reading the body (its iterator is
 * returned, which destroys an undici body).
 */
import { createParser } from 'eventsource-parser';

export interface SseEvent {
  /** The `event:` field; undefined for plain `data:` events. */
  event?: string;
  data: string;
  id?: string;
}

/** A line's end: CR, LF or CRLF (a CR that ends a chunk may be the first half of a CRLF; see below). */
const LINE_END = /\r\n?|\n/g;

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
  // The parser is fed one whole line at a time. Fed each chunk as it came, it scanned the unfinished
  // line again with every chunk (one 16 MiB event in 64 KiB chunks: 1.8 s, four times that for twice
  // the size) and looked for a CR from every line to the chunk's end (64 KiB of short lines: 175 ms).
  // A CR that ends a chunk is fed as a line's end; the parser itself holds it until it sees whether an
  // LF follows. `unfinished` holds the pieces of a line not ended yet, joined once it ends.
  let unfinished: string[] = [];
  const feed = (text: string) => {
    LINE_END.lastIndex = 0;
    let start = 0;
    for (let m = LINE_END.exec(text); m !== null; m = LINE_END.exec(text)) {
      const end = m.index + m[0].length;
      const line = text.slice(start, end);
      parser.feed(unfinished.length > 0 ? unfinished.join('') + line : line);
      unfinished = [];
      start = end;
    }
    if (start < text.length) unfinished.push(text.slice(start));
  };

  for await (const chunk of body) {
    feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    yield* drain();
  }
  const tail = decoder.decode();
  if (tail) feed(tail);
  // An event not terminated by a blank line when the body ends is dropped, as the SSE spec says.
  yield* drain();
}
