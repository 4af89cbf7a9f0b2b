import { parseGeminiRequest } from './gemini-request';

/** Runs `fn` counting the values every array iterator hands out meanwhile (spreads and for-of loops). */
function countArrayIteration(fn: () => void): number {
  const original = Array.prototype[Symbol.iterator];
  let steps = 0;
  Array.prototype[Symbol.iterator] = function (this: unknown[]) {
    const it = original.call(this);
    return {
      next: () => {
        steps++;
        return it.next();
      },
      [Symbol.iterator]() {
        return this;
      },
    } as ArrayIterator<unknown>;
  };
  try {
    fn();
  } finally {
    Array.prototype[Symbol.iterator] = original;
  }
  return steps;
}

describe('parseGeminiRequest', () => {
  it('reads many calls of one function in work linear in their number', () => {
    const n = 2000;
    const body = {
      contents: [
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'model', parts: Array.from({ length: n }, () => ({ functionCall: { name: 'f', args: {} } })) },
        { role: 'user', parts: Array.from({ length: n }, () => ({ functionResponse: { name: 'f', response: { ok: true } } })) },
      ],
    };
    let parsed: ReturnType<typeof parseGeminiRequest> | undefined;
    // Copying the pending calls' list on every call stepped through n²/2 = 2,000,000 of them.
    expect(countArrayIteration(() => (parsed = parseGeminiRequest('m', body)))).toBeLessThan(20 * n);
    const tool = parsed!.chat.messages.filter((m) => m.role === 'tool');
    expect(tool).toHaveLength(n);
    expect(tool[n - 1]).toMatchObject({ tool_call_id: `call_${n}` });
  });
});
