/** A source of uniform numbers in [0, 1); injected so channel choice is reproducible in tests. */
export type RandomSource = () => number;

/** Small seeded generator (mulberry32) for deterministic weighted choice in tests and simulations. */
export function seededRandom(seed: number): RandomSource {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
