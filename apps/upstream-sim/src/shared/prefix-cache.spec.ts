import { countPromptTokens, type ChatMessage } from '@unigate/contracts';
import { PrefixCache } from './prefix-cache';

const m = (content: string, role: ChatMessage['role'] = 'user'): ChatMessage => ({ role, content });
const tokens = (...ms: ChatMessage[]) => countPromptTokens(ms) - 3; // without the reply priming

describe('PrefixCache', () => {
  it('reports the longest prefix seen before, per scope', () => {
    const cache = new PrefixCache();
    const a = m('alpha beta gamma', 'system');
    const b = m('delta epsilon');
    expect(cache.lookupAndRecord('omega', [a, b])).toBe(0);
    expect(cache.lookupAndRecord('omega', [a, b, m('next')])).toBe(tokens(a, b));
    expect(cache.lookupAndRecord('omega', [a, m('different')])).toBe(tokens(a));
    expect(cache.lookupAndRecord('other-model', [a, b])).toBe(0);
    // A prefix match stops at the first difference, even when later messages repeat.
    expect(cache.lookupAndRecord('omega', [m('new start'), b])).toBe(0);
  });

  it('applies a minimum size and forgets the least recently used prefixes', () => {
    const cache = new PrefixCache(2);
    const a = m('one two three');
    cache.lookupAndRecord('s', [a]);
    expect(cache.lookupAndRecord('s', [a], 100)).toBe(0);
    expect(cache.lookupAndRecord('s', [a])).toBe(tokens(a));
    cache.lookupAndRecord('s', [m('x')]);
    cache.lookupAndRecord('s', [m('y')]);
    expect(cache.lookupAndRecord('s', [a])).toBe(0);
  });
});
