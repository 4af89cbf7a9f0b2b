import { PromptCache } from './anthropic-prompt-cache';

const long = (word: string, n = 1100) => `${word} `.repeat(n);
const cc = { type: 'ephemeral' as const };

describe('PromptCache', () => {
  it('writes on first use, reads the longest cached prefix later, and writes only the rest', () => {
    const cache = new PromptCache(() => 0);
    const system = [{ type: 'text' as const, text: long('rules'), cache_control: cc }];
    const turn1 = { role: 'user' as const, content: [{ type: 'text' as const, text: long('context'), cache_control: cc }] };
    expect(cache.use({ model: 'm', system, messages: [{ role: 'user', content: 'q' }] })).toEqual({
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 1103,
    });
    // system is cached now; the marked user turn adds 1,103 more tokens on top of it
    expect(cache.use({ model: 'm', system, messages: [turn1] })).toEqual({
      cache_read_input_tokens: 1103,
      cache_creation_input_tokens: 1103,
    });
    expect(cache.use({ model: 'm', system, messages: [turn1] })).toEqual({ cache_read_input_tokens: 2206, cache_creation_input_tokens: 0 });
    expect(cache.use({ model: 'other', system, messages: [turn1] })).toEqual({
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 2206,
    });
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

  it('ignores breakpoints under 1,024 tokens', () => {
    const cache = new PromptCache(() => 0);
    const req = {
      model: 'm',
      system: [{ type: 'text' as const, text: long('rules', 500), cache_control: cc }],
      messages: [{ role: 'user' as const, content: 'q' }],
    };
    cache.use(req);
    expect(cache.use(req)).toEqual({ cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
  });
});
