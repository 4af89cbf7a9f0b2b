import { readSse, type SseEvent } from './sse-reader';

/** The bytes of `text`, cut into `size`-byte pieces (splitting multi-byte characters too). */
async function* bytes(text: string, size: number): AsyncGenerator<Uint8Array> {
  const all = new TextEncoder().encode(text);
  for (let i = 0; i < all.length; i += size) yield all.slice(i, i + size);
}

async function all(source: AsyncIterable<Uint8Array | string>): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const e of readSse(source)) out.push(e);
  return out;
}

const STREAM = [
  ': keep-alive comment',
  'data: {"a":"héllo ✓"}',
  '',
  'event: error',
  'data: {"error":{"message":"x"}}',
  '',
  'id: 7',
  'data: line one',
  'data: line two',
  '',
  'data: [DONE]',
  '',
  '',
].join('\n');

describe('readSse', () => {
  it('fails a stream whose event goes on past the limit, however it is cut, after the events before it', async () => {
    const MAX = 64 * 1024;
    const endless = async function* (prefix: string) {
      yield 'data: 1\n\n';
      // Half a megabyte, one kilobyte at a time: one endless line, or endless data lines of one event.
      for (let i = 0; i < 512; i++) yield prefix + 'x'.repeat(1022) + (prefix ? '\n' : '');
      yield '\n\n';
    };
    for (const prefix of ['', 'data:']) {
      const got: string[] = [];
      const err = await (async () => {
        for await (const e of readSse(endless(prefix), MAX)) got.push(e.data);
      })().catch((e) => e);
      expect(got).toEqual(['1']);
      expect(err).toMatchObject({
        status: 502,
        retryable: false,
        message: "the upstream's event is larger than 65536 bytes, more than the gateway reads",
      });
    }
    // Many events that each stay within it add up to more, and are read whole.
    const many = async function* () {
      for (let i = 0; i < 512; i++) yield `data: ${'y'.repeat(1000)}\n\n`;
    };
    let count = 0;
    for await (const _ of readSse(many(), MAX)) count++;
    expect(count).toBe(512);
  });

  it.each([1, 2, 3, 7, 64, 4096])('parses the same events whatever the chunking (%i-byte pieces)', async (size) => {
    expect(await all(bytes(STREAM, size))).toEqual([
      { event: undefined, data: '{"a":"héllo ✓"}', id: undefined },
      { event: 'error', data: '{"error":{"message":"x"}}', id: undefined },
      { event: undefined, data: 'line one\nline two', id: '7' },
      { event: undefined, data: '[DONE]', id: undefined },
    ]);
  });

  it('accepts CRLF line endings and string chunks', async () => {
    async function* source() {
      yield 'data: one\r\n\r\ndata: ';
      yield 'two\r\n\r\n';
    }
    expect((await all(source())).map((e) => e.data)).toEqual(['one', 'two']);
  });

  it('accepts a CRLF cut between two chunks, and a lone CR', async () => {
    expect((await all(bytes('data: one\r\n\r\ndata: two\r\rdata: three\n\n', 1))).map((e) => e.data)).toEqual(['one', 'two', 'three']);
  });

  it('reads a long event in small chunks, and many short lines, scanning each character a few times', async () => {
    const long = `data: ${'x'.repeat(256 * 1024)}\n\n`;
    const short = 'data: {}\n\n'.repeat(6000); // 60 KB, one chunk
    const small = 'data: {}\n\n'.repeat(400); // 4 KB chunks of 800 lines: small enough to feed whole, but too many lines
    const size = long.length + short.length + 10 * small.length;
    const original = String.prototype.indexOf;
    let scanned = 0; // characters String.prototype.indexOf looked at, the parser's way of finding line ends
    String.prototype.indexOf = function (this: string, search: string, from = 0) {
      const at = original.call(this, search, from);
      scanned += (at < 0 ? this.length : at) - from;
      return at;
    };
    let events: SseEvent[];
    try {
      events = await all(
        (async function* () {
          yield* bytes(long, 1024);
          yield short;
          for (let i = 0; i < 10; i++) yield small;
        })(),
      );
    } finally {
      String.prototype.indexOf = original;
    }
    expect(events).toHaveLength(6001 + 4000);
    expect(events[0].data.length).toBe(256 * 1024);
    // Fed whole chunks, the parser scanned the unfinished line again with each one and looked for a CR
    // from every line to its chunk's end: 428 million characters here.
    expect(scanned).toBeLessThan(4 * size);
  });

  it('drops an event the body ended in the middle of', async () => {
    expect((await all(bytes('data: complete\n\ndata: {"partial":', 5))).map((e) => e.data)).toEqual(['complete']);
  });

  it('yields each event as soon as its chunk arrives and stops reading when the consumer breaks', async () => {
    let pulled = 0;
    let returned = false;
    const source: AsyncIterable<string> = {
      [Symbol.asyncIterator]() {
        return {
          next: async () => {
            pulled++;
            return { done: false, value: `data: ${pulled}\n\n` };
          },
          return: async () => {
            returned = true;
            return { done: true, value: undefined };
          },
        };
      },
    };
    const seen: string[] = [];
    for await (const e of readSse(source)) {
      seen.push(e.data);
      if (seen.length === 3) break;
    }
    expect(seen).toEqual(['1', '2', '3']);
    expect(pulled).toBe(3); // an endless source: nothing read ahead
    expect(returned).toBe(true);
  });
});
