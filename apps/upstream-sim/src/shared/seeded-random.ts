/**
 * Deterministic randomness: every simulated answer is a pure function of its request, so a streamed
 * answer equals the non-streamed one and tests can compare them.
 */
import { createHash } from 'node:crypto';

/** A 32-bit seed from any JSON-serialisable value (sha1 is native and fast on large prompts). */
export function seedFrom(value: unknown): number {
  return createHash('sha1')
    .update(JSON.stringify(value) ?? '')
    .digest()
    .readUInt32LE(0);
}

/** A short stable hex id from a seed, e.g. for tool-call ids. */
export function stableId(seed: number, length = 24): string {
  return createHash('sha1').update(String(seed)).digest('hex').slice(0, length);
}

/** mulberry32: tiny, fast, good enough for picking words. */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max] inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: ReadonlyArray<T>): T {
    return items[Math.floor(this.next() * items.length)];
  }

  chance(p: number): boolean {
    return this.next() < p;
  }
}
