import type { KeyPrincipal } from '@unigate/contracts';
import { KeyCache } from './key-cache';

const principal = { account_id: 'acct_1' } as unknown as KeyPrincipal;

describe('KeyCache', () => {
  it('answers a cached principal until its TTL, and an unknown key for at most a second', () => {
    const cache = new KeyCache(30_000, 10);
    cache.set('known', principal, 0);
    cache.set('unknown', null, 0);
    expect(cache.get('known', 29_999)).toBe(principal);
    expect(cache.get('unknown', 999)).toBeNull();
    expect(cache.get('unknown', 1_000)).toBeUndefined();
    expect(cache.get('known', 30_000)).toBeUndefined();
  });

  it('stays within its bound when flooded with unknown keys, dropping the oldest first', () => {
    const cache = new KeyCache(30_000, 100);
    cache.set('first', principal, 0);
    for (let i = 0; i < 1_000; i++) cache.set(`random-${i}`, null, 0);
    expect(cache.get('first', 0)).toBeUndefined();
    expect(cache.get('random-999', 0)).toBeNull();
    let kept = 0;
    for (let i = 0; i < 1_000; i++) if (cache.get(`random-${i}`, 0) === null) kept += 1;
    expect(kept).toBeLessThanOrEqual(100);
    expect(kept).toBeGreaterThanOrEqual(100 - 100 / 8);
  });
});
