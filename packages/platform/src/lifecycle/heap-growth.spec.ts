import { DEFAULT_HEAP_GROWING_PERCENT, heapGrowingPercent } from './heap-growth';

describe('UNIGATE_HEAP_GROWING_PERCENT', () => {
  it('defaults to 25 when unset or empty', () => {
    expect(DEFAULT_HEAP_GROWING_PERCENT).toBe(25);
    expect(heapGrowingPercent({})).toBe(25);
    expect(heapGrowingPercent({ UNIGATE_HEAP_GROWING_PERCENT: ' ' })).toBe(25);
  });

  it("falls back to the caller's default when unset (standalone: V8's own)", () => {
    expect(heapGrowingPercent({}, 0)).toBe(0);
    expect(heapGrowingPercent({ UNIGATE_HEAP_GROWING_PERCENT: '25' }, 0)).toBe(25);
  });

  it('takes 0 (V8 decides) up to 300', () => {
    expect(heapGrowingPercent({ UNIGATE_HEAP_GROWING_PERCENT: '0' })).toBe(0);
    expect(heapGrowingPercent({ UNIGATE_HEAP_GROWING_PERCENT: '50' })).toBe(50);
    expect(heapGrowingPercent({ UNIGATE_HEAP_GROWING_PERCENT: '300' })).toBe(300);
  });

  it.each(['-1', '2.5', '301', 'lots', '1e3'])('refuses %p, naming the variable', (raw) => {
    expect(() => heapGrowingPercent({ UNIGATE_HEAP_GROWING_PERCENT: raw })).toThrow(/UNIGATE_HEAP_GROWING_PERCENT must be a whole number/);
  });
});
