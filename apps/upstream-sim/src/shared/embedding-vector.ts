/**
 * Deterministic embeddings: the same text and dimension always give the same unit-length vector,
 * different texts different ones (seeded by the text).
 */
import { SeededRandom, seedFrom } from './seeded-random';

export function embeddingVector(text: string, dimensions: number): number[] {
  const random = new SeededRandom(seedFrom(text));
  const v = Array.from({ length: dimensions }, () => random.next() * 2 - 1);
  const norm = Math.hypot(...v) || 1;
  // Rounded to float32 so a base64 round trip through the gateway gives back the very same numbers.
  return v.map((x) => Math.fround(x / norm));
}
