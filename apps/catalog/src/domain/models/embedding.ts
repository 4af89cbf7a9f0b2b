/** Embedding models (SPEC.md §2.7). Billed per million input tokens; there is no output price. */
import type { EmbeddingLimits, ModelInfo } from '@unigate/contracts';
import { usd } from './usd';

function embedding(id: string, family: string, created: number, perMtok: number, description: string, limits: EmbeddingLimits): ModelInfo {
  return {
    id,
    family,
    kind: 'embedding',
    owned_by: family,
    created,
    description,
    prices: { input_per_mtok: usd(perMtok), output_per_mtok: 0 },
    endpoints: ['/v1/embeddings'],
    embedding: limits,
  };
}

const ZETA: EmbeddingLimits = { dimensions: [256, 512, 1024, 2048], default_dimensions: 1024, max_input_tokens: 32_000, max_batch: 1000 };

export const EMBEDDING_MODELS: ModelInfo[] = [
  embedding('text-embedding-v4', 'alpha', 1751328000, 0.07, 'Multilingual alpha embeddings, custom dimensions.', {
    dimensions: [2048, 1536, 1024, 768, 512, 256, 128, 64],
    default_dimensions: 1024,
    max_input_tokens: 8192,
    max_batch: 10,
  }),
  embedding('text-embedding-004', 'gamma', 1715817600, 0.02, 'Gamma text embeddings.', {
    dimensions: [768, 512, 256, 128],
    default_dimensions: 768,
    max_input_tokens: 2048,
    max_batch: 100,
  }),
  embedding('gamma-embedding-001', 'gamma', 1752537600, 0.15, 'Gamma embeddings, Matryoshka dimensions.', {
    dimensions: [3072, 1536, 768],
    default_dimensions: 3072,
    max_input_tokens: 2048,
    max_batch: 100,
  }),
  embedding('gamma-embedding-2-preview', 'gamma', 1772323200, 0.2, 'Preview of the second gamma embedding generation.', {
    dimensions: [3072, 1536, 768],
    default_dimensions: 3072,
    max_input_tokens: 8192,
    max_batch: 100,
  }),
  embedding('zeta-4-large', 'zeta', 1768435200, 0.12, 'Zeta embeddings, best retrieval quality.', ZETA),
  embedding('zeta-4', 'zeta', 1768435200, 0.06, 'Zeta embeddings, balanced.', ZETA),
  embedding('zeta-4-lite', 'zeta', 1768435200, 0.02, 'Zeta embeddings, lowest latency and cost.', ZETA),
];
