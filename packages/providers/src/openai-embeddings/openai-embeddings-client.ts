/**
 * Embeddings over OpenAI's `POST {base}/embeddings` (OpenAI and compatible vendors, the gamma
 * family's compatible endpoint included). Floats are always asked for: the gateway encodes base64
 * itself, so every upstream answers the client the same way.
 */
import { errors } from '@unigate/contracts';
import { z } from 'zod';
import type { EmbeddedBatch, EmbeddingUpstream } from '../embeddings/embedding-upstream';
import { inInputOrder } from '../embeddings/embedding-upstream';
import type { HttpClient } from '../http/http-client';
import { postUpstreamJson } from '../http/post-upstream';
import type { UpstreamErrorPolicy } from '../http/upstream-errors';
import { openAiErrorPolicy } from '../openai-chat/openai-chat-errors';

export const openAiEmbeddingsResponseSchema = z.looseObject({
  data: z.array(z.looseObject({ index: z.number().int(), embedding: z.array(z.number()) })),
  usage: z
    .looseObject({ prompt_tokens: z.number().int().nonnegative().optional(), total_tokens: z.number().int().nonnegative().optional() })
    .optional(),
});

export const v1Url = (base: string, path: string) => `${base.replace(/\/+$/, '')}${path}`;

export const bearerJson = (apiKey: string): Record<string, string> => ({
  'content-type': 'application/json',
  accept: 'application/json',
  ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
});

/** How an OpenAI-like embeddings upstream differs from OpenAI's own: the dimensions field, extra fields, the error body. */
export interface EmbeddingsDialect {
  dimensionsField: 'dimensions' | 'output_dimension';
  extra?: Record<string, unknown>;
  errorPolicy: UpstreamErrorPolicy;
}

/** An upstream speaking OpenAI's `POST {base}/embeddings`, in `dialect`. */
export function v1EmbeddingsClient(http: HttpClient, dialect: EmbeddingsDialect): EmbeddingUpstream {
  return {
    async embed(channel, batch, ctx): Promise<EmbeddedBatch> {
      const body = {
        model: channel.upstream_model,
        input: batch.texts,
        ...dialect.extra,
        ...(batch.dimensions && { [dialect.dimensionsField]: batch.dimensions }),
      };
      const data = await postUpstreamJson(
        http,
        {
          url: v1Url(channel.base_url, '/embeddings'),
          headers: bearerJson(channel.api_key),
          body: JSON.stringify(body),
          signal: ctx.signal,
        },
        dialect.errorPolicy,
        { schema: openAiEmbeddingsResponseSchema, what: 'embeddings answer' },
      );
      const vectors = inInputOrder(data.data, batch.texts.length);
      if (!vectors) throw errors.upstream(502, 'upstream sent an invalid embeddings answer: one vector per input expected', true);
      return { vectors, tokens: data.usage?.prompt_tokens ?? data.usage?.total_tokens };
    },
  };
}

export const openAiEmbeddingsClient = (http: HttpClient): EmbeddingUpstream =>
  v1EmbeddingsClient(http, { dimensionsField: 'dimensions', extra: { encoding_format: 'float' }, errorPolicy: openAiErrorPolicy });
