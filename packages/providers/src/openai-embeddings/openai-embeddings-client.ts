/**
 * Embeddings over OpenAI's `POST {base}/embeddings` (OpenAI and compatible vendors, the gamma
 * family's compatible endpoint included). A dialect that can answer base64 (float32, little-endian)
 * is asked for it: a thousand vectors of 2,048 floats are 41 MB of JSON numbers to parse, check and
 * print again (the event loop blocked for over a second a request), against 11 MB of strings that a
 * client asking for base64 (the official SDKs' default) gets unread. Others are asked for floats;
 * the endpoint encodes what the client asked either way.
 */
import { errors, isFloat32Base64 } from '@unigate/contracts';
import { z } from 'zod';
import type { EmbeddedBatch, EmbeddingUpstream } from '../embeddings/embedding-upstream';
import { inInputOrder } from '../embeddings/embedding-upstream';
import type { HttpClient } from '../http/http-client';
import { postUpstreamJson } from '../http/post-upstream';
import type { UpstreamErrorPolicy } from '../http/upstream-errors';
import { openAiErrorPolicy } from '../openai-chat/openai-chat-errors';

const usageSchema = z
  .looseObject({ prompt_tokens: z.number().int().nonnegative().optional(), total_tokens: z.number().int().nonnegative().optional() })
  .optional();

export const openAiEmbeddingsResponseSchema = z.looseObject({
  data: z.array(z.looseObject({ index: z.number().int(), embedding: z.array(z.number()) })),
  usage: usageSchema,
});

const float32Base64 = z.string().refine(isFloat32Base64, { message: 'expected base64 of float32 values' });

export const base64EmbeddingsResponseSchema = z.looseObject({
  data: z.array(z.looseObject({ index: z.number().int(), embedding: float32Base64 })),
  usage: usageSchema,
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
  /** It answers `encoding_format: "base64"` with float32 little-endian vectors. */
  base64?: boolean;
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
        ...(dialect.base64 && { encoding_format: 'base64' }),
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
        { schema: dialect.base64 ? base64EmbeddingsResponseSchema : openAiEmbeddingsResponseSchema, what: 'embeddings answer' },
      );
      const vectors = inInputOrder(data.data, batch.texts.length);
      if (!vectors) throw errors.upstream(502, 'upstream sent an invalid embeddings answer: one vector per input expected', true);
      return { vectors, tokens: data.usage?.prompt_tokens ?? data.usage?.total_tokens };
    },
  };
}

export const openAiEmbeddingsClient = (http: HttpClient): EmbeddingUpstream =>
  v1EmbeddingsClient(http, { dimensionsField: 'dimensions', extra: { encoding_format: 'float' }, errorPolicy: openAiErrorPolicy });
