/**
 * Server-Sent Events reader: a response body (any async iterable of bytes, e.g. undici's) in, parsed
 * events out, one at a time as they arrive. Parsing is eventsource-parser's; the only string surgery
 * here is cutting the text into lines (below), and nothing is buffered beyond the events of the chunk
 * just read and the line it ends in. Breaking out of the loop stops reading the body (its iterator is
 * returned, which destroys an undici body). An event (or a line) that goes on past `maxEventChars`
 * fails the stream with answer-limit.ts's 502 rather than being collected without end.
 */
import { createParser } from 'eventsource-parser';
import { answerTooLarge, defaultAnswerLimitBytes } from '../http/answer-limit';

export interface SseEvent {
  /** The `event:` field; undefined for plain `data:` events. */
  event?: string;
  data: string;
  id?: string;
}

/** The largest chunk fed to the parser whole (below): its per-line CR search is bounded by this. */
const WHOLE_FEED_MAX = 4096;
/** Lines of a chunk fed whole, at most: each costs the parser a search to the chunk's end. */
const WHOLE_FEED_LINES = 8;

/** Whether `text` ends at most WHOLE_FEED_LINES lines (native searches, stopping past the bound). */
function fewLines(text: string): boolean {
  let lines = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) if (++lines > WHOLE_FEED_LINES) return false;
  return true;
}

/** A line's end: CR, LF or CRLF (a CR that ends a chunk may be the first half of a CRLF; see below). */
const LINE_END = /\r\n?|\n/g;

const DEFAULT_MAX_EVENT_CHARS = defaultAnswerLimitBytes();

export async function* readSse(
  body: AsyncIterable<Uint8Array | string>,
  maxEventChars = DEFAULT_MAX_EVENT_CHARS,
): AsyncGenerator<SseEvent> {
  let pending: SseEvent[] = [];
  // Characters read since the last event ended (counted a chunk at a time): what the parser holds.
  let sinceEvent = 0;
  const parser = createParser({
    onEvent: (e) => {
      pending.push({ event: e.event, data: e.data, id: e.id });
      sinceEvent = 0;
    },
  });
  const decoder = new TextDecoder();
  const drain = () => {
    const ready = pending;
    pending = [];
    return ready;
  };
  // Linear in the body whatever its chunking: the parser rescans its unfinished line with every feed,
  // and for every line searches for a CR up to the end of what it was fed. So a chunk is fed whole
  // only when it is small, holds a few lines and ends its last one (an upstream's usual chunk: an event
  // or two, where one feed is the cheapest); otherwise the parser gets one whole line at a time. A CR that ends a
  // chunk counts as a line's end; the parser holds it until it sees whether an LF follows.
  // `unfinished` holds the pieces of a line not ended yet, joined once it ends.
  let unfinished: string[] = [];
  const feed = (text: string) => {
    if (unfinished.length === 0 && text.length <= WHOLE_FEED_MAX && text.charCodeAt(text.length - 1) === 0x0a && fewLines(text)) {
      parser.feed(text);
      return;
    }
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
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    sinceEvent += text.length;
    if (sinceEvent > maxEventChars) throw answerTooLarge(maxEventChars, 'event');
    feed(text);
    yield* drain();
  }
  const tail = decoder.decode();
  if (tail) feed(tail);
  // An event not terminated by a blank line when the body ends is dropped, as the SSE spec says.
  yield* drain();
}
