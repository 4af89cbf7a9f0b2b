import type { Channel } from '@unigate/contracts';
import { orderChannels } from './channel-order';
import { seededRandom } from './random';

function ch(id: string, priority: number, weight: number): Channel {
  return { id, protocol: 'openai-chat', base_url: `http://${id}.test/v1`, api_key: '', upstream_model: 'm', priority, weight };
}

describe('orderChannels', () => {
  it('tries higher priorities first and keeps every channel exactly once', () => {
    const channels = [ch('backup', 0, 1), ch('primary', 10, 1), ch('last', -5, 1), ch('secondary', 5, 1)];
    const ids = orderChannels(channels, seededRandom(1)).map((c) => c.id);
    expect(ids).toEqual(['primary', 'secondary', 'backup', 'last']);
  });

  it('splits first picks within one priority by weight', () => {
    const random = seededRandom(42);
    const channels = [ch('a', 1, 3), ch('b', 1, 1), ch('fallback', 0, 1)];
    const firsts = { a: 0, b: 0 } as Record<string, number>;
    const draws = 4000;
    for (let i = 0; i < draws; i++) {
      const order = orderChannels(channels, random).map((c) => c.id);
      firsts[order[0]]++;
      // The peer is the failover of the pick; the lower priority comes only after both.
      expect(order.slice(0, 2).sort()).toEqual(['a', 'b']);
      expect(order[2]).toBe('fallback');
    }
    expect(firsts.a / draws).toBeGreaterThan(0.7);
    expect(firsts.a / draws).toBeLessThan(0.8);
  });

  it('is reproducible for the same seed', () => {
    const channels = [ch('a', 0, 1), ch('b', 0, 1), ch('c', 0, 1), ch('d', 0, 1)];
    const orders = (seed: number) => {
      const random = seededRandom(seed);
      return Array.from({ length: 20 }, () =>
        orderChannels(channels, random)
          .map((c) => c.id)
          .join(),
      );
    };
    expect(orders(7)).toEqual(orders(7));
    expect(new Set(orders(7)).size).toBeGreaterThan(1); // the draw does vary from call to call
  });

  it('maps the random draw onto cumulative weights', () => {
    const channels = [ch('a', 0, 1), ch('b', 0, 2), ch('c', 0, 1)];
    // total 4: [0,1) → a, [1,3) → b, [3,4) → c
    expect(orderChannels(channels, () => 0.1)[0].id).toBe('a');
    expect(orderChannels(channels, () => 0.5)[0].id).toBe('b');
    expect(orderChannels(channels, () => 0.9)[0].id).toBe('c');
    // A source returning exactly 1 still picks a channel instead of falling off the end.
    expect(orderChannels(channels, () => 1).map((c) => c.id)).toEqual(['c', 'b', 'a']);
  });

  it('puts weight-0 standbys after the weighted channels of their priority', () => {
    const channels = [ch('standby', 1, 0), ch('live', 1, 1), ch('low', 0, 1)];
    for (const r of [0, 0.5, 0.99]) expect(orderChannels(channels, () => r).map((c) => c.id)).toEqual(['live', 'standby', 'low']);
  });

  it('returns an empty list for no channels', () => {
    expect(orderChannels([], Math.random)).toEqual([]);
  });
});
