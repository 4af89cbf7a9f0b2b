import { dropOldest, ExpiringMap } from './collections';

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

describe('ExpiringMap', () => {
  it('answers an entry until its time, and forgets it from then on', () => {
    const map = new ExpiringMap<string, number>(10);
    map.set('a', 1, 100, 1_000);
    expect(map.get('a', 1_099)).toBe(1);
    expect(map.get('a', 1_100)).toBeUndefined();
    expect(map.size).toBe(0);
    expect(map.get('never', 1_000)).toBeUndefined();
  });

  it('gives each entry its own time to live, and a set again starts it over', () => {
    const map = new ExpiringMap<string, string>(10);
    map.set('long', 'x', 1_000, 0);
    map.set('short', 'y', 10, 0);
    expect(map.get('short', 20)).toBeUndefined();
    expect(map.get('long', 20)).toBe('x');
    map.set('long', 'z', 1_000, 900);
    expect(map.get('long', 1_500)).toBe('z');
  });

  it('stays within its bound, dropping the entries written longest ago (a key set again is the newest)', () => {
    const map = new ExpiringMap<number, number>(8);
    for (let i = 0; i < 8; i++) map.set(i, i, 60_000, 0);
    map.set(0, 0, 60_000, 1);
    map.set(8, 8, 60_000, 1);
    expect(map.size).toBeLessThanOrEqual(8);
    expect(map.get(0, 2)).toBe(0);
    expect(map.get(1, 2)).toBeUndefined();
    expect(map.get(8, 2)).toBe(8);
  });

  it('deletes one entry, or all', () => {
    const map = new ExpiringMap<string, number>(10);
    map.set('a', 1, 100, 0);
    map.set('b', 2, 100, 0);
    map.delete('a');
    expect(map.get('a', 1)).toBeUndefined();
    expect(map.get('b', 1)).toBe(2);
    map.clear();
    expect(map.size).toBe(0);
  });
});
