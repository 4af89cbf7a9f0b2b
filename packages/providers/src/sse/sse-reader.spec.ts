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
