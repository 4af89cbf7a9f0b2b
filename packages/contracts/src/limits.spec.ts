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
