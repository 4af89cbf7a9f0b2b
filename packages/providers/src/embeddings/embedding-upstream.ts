/**
 * What every embeddings upstream does, whatever its wire format: texts and a dimension in, vectors
 * in input order and the tokens it counted (when it says) out. The embeddings endpoint
 * (endpoints/embeddings.endpoint.ts) builds the public answer around it.
 */
import type { Channel } from '@unigate/contracts';
import type { CallContext } from '../adapter';

export interface EmbeddingBatch {
  texts: string[];
  /** The dimension to produce (the model's default when the client gave none). */
  dimensions?: number;
}

/**
 * A vector as numbers, or as the upstream sent it in base64 (its little-endian float32 values, which
 * is also what a client asking for base64 gets: passed on unread).
 */
export type UpstreamVector = number[] | string;

export interface EmbeddedBatch {
  /** One vector per text, in the order of the texts. */
  vectors: UpstreamVector[];
  /** Input tokens as the upstream counted them; undefined when it did not say. */
  tokens?: number;
}

export interface EmbeddingUpstream {
  embed(channel: Channel, batch: EmbeddingBatch, ctx: CallContext): Promise<EmbeddedBatch>;
}

/** Vectors an upstream tagged with their input's index, in input order; a missing or extra one is the upstream's fault. */
export function inInputOrder(
  items: ReadonlyArray<{ index: number; embedding: UpstreamVector }>,
  count: number,
): UpstreamVector[] | undefined {
  const out: UpstreamVector[] = new Array(count);
  for (const item of items) {
    if (item.index < 0 || item.index >= count || out[item.index]) return undefined;
    out[item.index] = item.embedding;
  }
  for (let i = 0; i < count; i++) if (!out[i]) return undefined;
  return out;
}
