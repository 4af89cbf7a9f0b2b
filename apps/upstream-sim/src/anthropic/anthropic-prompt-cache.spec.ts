import { PromptCache } from './anthropic-prompt-cache';

const long = (word: string, n = 1100) => `${word} `.repeat(n);
const cc = { type: 'ephemeral' as const };
const hour = { type: 'ephemeral' as const, ttl: '1h' as const };
/** A use's counts: reads, and writes for five minutes and for an hour. */
const counts = (read: number, written5m: number, written1h = 0) => ({
  cache_read_input_tokens: read,
  cache_creation_input_tokens: written5m + written1h,
  cache_creation: { ephemeral_5m_input_tokens: written5m, ephemeral_1h_input_tokens: written1h },
});

describe('PromptCache', () => {
  it('writes on first use, reads the longest cached prefix later, and writes only the rest', () => {
    const cache = new PromptCache(() => 0);
    const system = [{ type: 'text' as const, text: long('rules'), cache_control: cc }];
    const turn1 = { role: 'user' as const, content: [{ type: 'text' as const, text: long('context'), cache_control: cc }] };
    expect(cache.use({ model: 'm', system, messages: [{ role: 'user', content: 'q' }] })).toEqual(counts(0, 1103));
    // system is cached now; the marked user turn adds 1,103 more tokens on top of it
    expect(cache.use({ model: 'm', system, messages: [turn1] })).toEqual(counts(1103, 1103));
    expect(cache.use({ model: 'm', system, messages: [turn1] })).toEqual(counts(2206, 0));
    expect(cache.use({ model: 'other', system, messages: [turn1] })).toEqual(counts(0, 2206));
  });

  it('splits the writes by ttl as the API does: up to the last one-hour breakpoint past the read for an hour, the rest for 5 minutes', () => {
    const cache = new PromptCache(() => 0);
    const system = [{ type: 'text' as const, text: long('rules'), cache_control: hour }];
    const turn = (word: string, cache_control: typeof cc | typeof hour) => ({
      role: 'user' as const,
      content: [{ type: 'text' as const, text: long(word), cache_control }],
    });
    // the system prompt (1,103 tokens) for an hour, the marked user turn (1,103 more) for 5 minutes
    expect(cache.use({ model: 'm', system, messages: [turn('context', cc)] })).toEqual(counts(0, 1103, 1103));
    // the system prompt is read back; a new turn adds 1,103 tokens for 5 minutes
    expect(cache.use({ model: 'm', system, messages: [turn('other', cc)] })).toEqual(counts(1103, 1103));
    // every breakpoint for an hour: all the writes are one-hour writes
    expect(cache.use({ model: 'm', system, messages: [turn('more', hour)] })).toEqual(counts(1103, 0, 1103));
    expect(cache.use({ model: 'fresh', system, messages: [turn('more', hour)] })).toEqual(counts(0, 0, 2206));
  });

  it('reads what the turn before wrote when the marker moved to the newest block, up to 20 blocks back, as the API does', () => {
    const cache = new PromptCache(() => 0);
    const system = [{ type: 'text' as const, text: long('rules'), cache_control: cc }];
    const user = (word: string, marked: boolean) => ({
      role: 'user' as const,
      content: [{ type: 'text' as const, text: long(word), ...(marked && { cache_control: cc }) }],
    });
    const answer = { role: 'assistant' as const, content: [{ type: 'text' as const, text: long('answer') }] };
    // Claude Code's pattern: the system prompt and the newest block marked.
    expect(cache.use({ model: 'm', system, messages: [user('first', true)] })).toEqual(counts(0, 2206));
    // The marker moved on: the prefix up to the first turn (2,206 tokens) is read back, the rest written.
    expect(cache.use({ model: 'm', system, messages: [user('first', false), answer, user('second', true)] })).toEqual(counts(2206, 2206));
    // More than 20 blocks past the last write: only the system prompt is found.
    const filler = Array.from({ length: 21 }, (_, i) => ({ role: i % 2 ? ('user' as const) : ('assistant' as const), content: 'x' }));
    const far = { model: 'm', system, messages: [user('first', false), ...filler, user('third', true)] };
    expect(cache.use(far).cache_read_input_tokens).toBe(1103);
  });

  it('expires entries after their ttl (5 minutes by default, 1 hour when asked)', () => {
    let now = 0;
    const cache = new PromptCache(() => now);
    const req = (ttl?: '1h') => ({
      model: 'm',
      system: [{ type: 'text' as const, text: long('rules'), cache_control: { type: 'ephemeral' as const, ...(ttl && { ttl }) } }],
      messages: [{ role: 'user' as const, content: 'q' }],
    });
    cache.use(req());
    now = 5 * 60_000 + 1;
    expect(cache.use(req()).cache_read_input_tokens).toBe(0);
    cache.use(req('1h'));
    now += 30 * 60_000;
    expect(cache.use(req('1h')).cache_read_input_tokens).toBe(1103);
  });

  it('treats an entry as expired from its ttl on, also between the once-a-second sweeps', () => {
    let now = 0;
    const cache = new PromptCache(() => now);
    const req = (word: string) => ({
      model: 'm',
      system: [{ type: 'text' as const, text: long(word), cache_control: cc }],
      messages: [{ role: 'user' as const, content: 'q' }],
    });
    cache.use(req('rules'));
    now = 5 * 60_000 - 500; // a sweep runs here, while 'rules' is still fresh
    expect(cache.use(req('other')).cache_read_input_tokens).toBe(0);
    now = 5 * 60_000 + 100; // under a second later: no sweep, and 'rules' has expired
    expect(cache.use(req('rules'))).toEqual(counts(0, 1103));
    expect(cache.use(req('rules')).cache_read_input_tokens).toBe(1103);
  });

  it('keeps at most 10,000 entries, the newest', () => {
    let now = 0;
    const cache = new PromptCache(() => now);
    const req = (i: number) => ({
      model: `m${i}`,
      system: [{ type: 'text' as const, text: long('rules'), cache_control: cc }],
      messages: [{ role: 'user' as const, content: 'q' }],
    });
    for (let i = 0; i < 10_050; i++) {
      now = i; // every request within the ttl: only the bound drops entries
      cache.use(req(i));
    }
    expect(cache.use(req(10_049)).cache_read_input_tokens).toBe(1103);
    expect(cache.use(req(0)).cache_read_input_tokens).toBe(0);
  });

  it('ignores breakpoints under 1,024 tokens', () => {
    const cache = new PromptCache(() => 0);
    const req = {
      model: 'm',
      system: [{ type: 'text' as const, text: long('rules', 500), cache_control: cc }],
      messages: [{ role: 'user' as const, content: 'q' }],
    };
    cache.use(req);
    expect(cache.use(req)).toEqual(counts(0, 0));
  });
  /** `items`, counting every element read from it in `reads.count`. */
  const counted = <T extends object>(items: T[], reads: { count: number }): T[] =>
    new Proxy(items, {
      get: (target, key, receiver) => {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads.count++;
        return Reflect.get(target, key, receiver);
      },
    });

  it('reads unmarked blocks and tools a few times each: a prefix is built for a marked one only', () => {
    const n = 2000;
    const reads = { count: 0 };
    const blocks = counted(
      Array.from({ length: n }, () => ({ type: 'text' as const, text: 'a' })),
      reads,
    );
    const tools = counted(
      Array.from({ length: n }, (_, i) => ({ name: `f${i}`, input_schema: { type: 'object' as const } })),
      reads,
    );
    const cache = new PromptCache(() => 0);
    expect(cache.use({ model: 'm', tools, messages: [{ role: 'user', content: blocks }] })).toEqual(counts(0, 0));
    // A prefix built for every block and tool read n²/2 = 2,000,000 of each.
    expect(reads.count).toBeLessThan(10 * n);
  });

  it('refuses more than 4 breakpoints, as the API does, before building any prefix', () => {
    const n = 2000;
    const reads = { count: 0 };
    const blocks = counted(
      Array.from({ length: n }, () => ({ type: 'text' as const, text: 'a', cache_control: cc })),
      reads,
    );
    const cache = new PromptCache(() => 0);
    expect(() => cache.use({ model: 'm', messages: [{ role: 'user', content: blocks }] })).toThrow(
      expect.objectContaining({ status: 400, message: 'A maximum of 4 blocks with cache_control may be provided. Found 2000.' }),
    );
    // A prefix hashed and counted for each of them read n²/2 = 2,000,000 blocks.
    expect(reads.count).toBeLessThan(10 * n);
    const four = Array.from({ length: 4 }, () => ({ type: 'text' as const, text: long('a'), cache_control: cc }));
    expect(cache.use({ model: 'm', messages: [{ role: 'user', content: four }] }).cache_creation_input_tokens).toBe(4 * 1100 + 3); // the message adds 3
  });

  it("refuses a one-hour breakpoint after a five-minute one in the API's order (tools, system, messages), naming it as the API does", () => {
    const cache = new PromptCache(() => 0);
    const tool = (cache_control?: typeof cc | typeof hour) => ({ name: 't', input_schema: { type: 'object' as const }, cache_control });
    const text = (cache_control?: typeof cc | typeof hour) => ({ type: 'text' as const, text: 'x', cache_control });
    const refusal = (path: string) =>
      expect.objectContaining({
        status: 400,
        message: `${path}.cache_control.ttl: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are processed in the following order: \`tools\`, \`system\`, \`messages\`.`,
      });
    expect(() => cache.use({ model: 'm', tools: [tool(cc)], messages: [{ role: 'user', content: [text(), text(hour)] }] })).toThrow(
      refusal('messages.0.content.1'),
    );
    expect(() => cache.use({ model: 'm', system: [text(), text(cc), text(hour)], messages: [{ role: 'user', content: 'q' }] })).toThrow(
      refusal('system.2'),
    );
    // A marker without a ttl is a five-minute one.
    expect(() =>
      cache.use({ model: 'm', tools: [tool({ type: 'ephemeral' }), tool(hour)], messages: [{ role: 'user', content: 'q' }] }),
    ).toThrow(refusal('tools.1'));
    // One-hour first, then five-minute: taken.
    expect(() =>
      cache.use({ model: 'm', tools: [tool(hour)], system: [text(hour)], messages: [{ role: 'user', content: [text(cc)] }] }),
    ).not.toThrow();
  });
});
