import type { KeyPrincipal } from '@unigate/contracts';
import { KeyCache, STALE_IF_ERROR_MS } from './key-cache';

const principal = { account_id: 'acct_1' } as unknown as KeyPrincipal;

describe('KeyCache', () => {
  it('answers what billing said and how long ago: an unknown key for at most a second, a known one until the stale bound past its TTL', () => {
    const cache = new KeyCache(30_000, 10);
    cache.set('known', principal, 0);
    cache.set('unknown', null, 0);
    expect(cache.get('known', 29_999)).toEqual({ principal, age: 29_999 });
    expect(cache.get('unknown', 999)).toEqual({ principal: null, age: 999 });
    expect(cache.get('unknown', 1_000)).toBeUndefined();
    expect(cache.get('known', 30_000 + STALE_IF_ERROR_MS - 1)).toEqual({ principal, age: 30_000 + STALE_IF_ERROR_MS - 1 });
    expect(cache.get('known', 30_000 + STALE_IF_ERROR_MS)).toBeUndefined();
  });

  it('stays within its bound when flooded with unknown keys, dropping the oldest unknown ones and never a known key', () => {
    const cache = new KeyCache(30_000, 100, 100);
    cache.set('first', principal, 0);
    for (let i = 0; i < 1_000; i++) cache.set(`random-${i}`, null, 0);
    // The known key outlives the flood: it is what serves its key while billing cannot answer.
    expect(cache.get('first', 40_000)).toEqual({ principal, age: 40_000 });
    expect(cache.get('random-999', 0)?.principal).toBeNull();
    let kept = 0;
    for (let i = 0; i < 1_000; i++) if (cache.get(`random-${i}`, 0)?.principal === null) kept += 1;
    expect(kept).toBeLessThanOrEqual(100);
    expect(kept).toBeGreaterThanOrEqual(100 - 100 / 8);
  });

  it('keeps known keys within their own bound, and a key is in one place: what billing said last', () => {
    const cache = new KeyCache(30_000, 100, 100);
    for (let i = 0; i < 1_000; i++) cache.set(`key-${i}`, principal, 0);
    expect(cache.get('key-0', 0)).toBeUndefined();
    expect(cache.get('key-999', 0)?.principal).toBe(principal);
    // Known, then unknown (revoked and looked up again), then known again: each answer replaces the last.
    cache.set('key-999', null, 1);
    expect(cache.get('key-999', 1)).toEqual({ principal: null, age: 0 });
    cache.set('key-999', principal, 2);
    expect(cache.get('key-999', 2)).toEqual({ principal, age: 0 });
    cache.delete('key-999');
    expect(cache.get('key-999', 2)).toBeUndefined();
  });
});
