import { dropOldest } from './collections';

describe('dropOldest', () => {
  it('leaves a collection at or under its bound alone', () => {
    const set = new Set([1, 2, 3]);
    dropOldest(set, 3);
    expect([...set]).toEqual([1, 2, 3]);
  });

  it('deletes the oldest entries, an eighth of the bound beyond the excess', () => {
    const set = new Set<number>();
    for (let i = 0; i < 17; i++) set.add(i);
    dropOldest(set, 16);
    // 1 over, plus 16 / 8 = 2: the three oldest go.
    expect([...set]).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
  });

  it('keeps a Map in insertion order and never above its bound while filled one entry at a time', () => {
    const map = new Map<string, number>();
    for (let i = 0; i < 1_000; i++) {
      map.set(`k${i}`, i);
      dropOldest(map, 100);
      expect(map.size).toBeLessThanOrEqual(100);
    }
    expect(map.size).toBeGreaterThanOrEqual(100 - 100 / 8);
    expect(map.get('k999')).toBe(999);
    const values = [...map.values()];
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(values[0]).toBe(1_000 - map.size);
  });
});
