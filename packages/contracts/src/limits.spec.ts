import fc from 'fast-check';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from './limits';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('jsonDepthExceeds', () => {
  it('allows exactly the cap and refuses one level more', () => {
    expect(jsonDepthExceeds(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonDepthExceeds(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonDepthExceeds(`{"a":${'{"b":'.repeat(200)}1${'}'.repeat(201)}`)).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonDepthExceeds(JSON.stringify({ text: '['.repeat(10_000) }))).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ text: '\\"' + '{'.repeat(500) }))).toBe(false);
  });

  it('checks a 5,000-deep value quickly, without recursion', () => {
    const started = performance.now();
    expect(jsonDepthExceeds(`{"tools":[{"parameters":${nested(5_000)}}]}`)).toBe(true);
    expect(jsonDepthExceeds(JSON.stringify({ a: 'x'.repeat(5_000_000) }))).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe('jsonDepthExceeds skips strings by searching for their closing quote', () => {
  /** The definition, one character at a time: a backslash in a string escapes the next character. */
  function reference(text: string, max: number): boolean {
    let depth = 0;
    let inString = false;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{' || c === '[') {
        if (++depth > max) return true;
      } else if (c === '}' || c === ']') depth--;
    }
    return false;
  }

  it('answers as the character-by-character scan on any mix of quotes, backslashes and brackets', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('"', '\\', '{', '}', '[', ']', 'a', ':', ','), { maxLength: 60 }), fc.nat(4), (chars, max) => {
        const text = chars.join('');
        expect(jsonDepthExceeds(text, max)).toBe(reference(text, max));
      }),
      { numRuns: 5_000 },
    );
  });

  it('stays linear on a string of escaped quotes and backslash runs', () => {
    const text = JSON.stringify({ a: '\\"'.repeat(200_000) + '\\'.repeat(200_000) + '"{['.repeat(100_000) });
    expect(jsonDepthExceeds(text)).toBe(reference(text, MAX_JSON_DEPTH));
  });
});
