/**
 * Voyage's `POST {base}/embeddings` (the zeta family): OpenAI-like, with `output_dimension` for our
 * `dimensions`, `{detail}` error bodies, and base64 answers on asking (reference/voyage.md).
 */
import { z } from 'zod';
import type { EmbeddingUpstream } from '../embeddings/embedding-upstream';
import type { HttpClient } from '../http/http-client';
import type { UpstreamErrorPolicy } from '../http/upstream-errors';
import { v1EmbeddingsClient } from '../openai-embeddings/openai-embeddings-client';

export const voyageErrorPolicy: UpstreamErrorPolicy = {
  detail(json) {
    const parsed = z.looseObject({ detail: z.string() }).safeParse(json);
    return parsed.success ? { message: parsed.data.detail } : undefined;
  },
};

export const voyageEmbeddingsClient = (http: HttpClient): EmbeddingUpstream =>
  v1EmbeddingsClient(http, { dimensionsField: 'output_dimension', base64: true, errorPolicy: voyageErrorPolicy });
