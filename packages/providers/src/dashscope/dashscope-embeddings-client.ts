/**
 * DashScope's native text-embedding call (text-embedding-v4): `input.texts`, `parameters.dimension`,
 * vectors tagged with `text_index` (reference/dashscope.md).
 */
import { errors } from '@unigate/contracts';
import { z } from 'zod';
import type { EmbeddedBatch, EmbeddingUpstream } from '../embeddings/embedding-upstream';
import { inInputOrder } from '../embeddings/embedding-upstream';
import type { HttpClient } from '../http/http-client';
import { postUpstreamJson } from '../http/post-upstream';
import { bearerJson } from '../openai-embeddings/openai-embeddings-client';
import { dashscopeErrorPolicy, dashscopeUrl } from './dashscope-errors';

export const DASHSCOPE_EMBEDDING_PATH = '/api/v1/services/embeddings/text-embedding/text-embedding';

const dashscopeEmbeddingSchema = z.looseObject({
  output: z.looseObject({ embeddings: z.array(z.looseObject({ text_index: z.number().int(), embedding: z.array(z.number()) })) }),
  usage: z.looseObject({ total_tokens: z.number().int().nonnegative() }).optional(),
});

export function dashscopeEmbeddingsClient(http: HttpClient): EmbeddingUpstream {
  return {
    async embed(channel, batch, ctx): Promise<EmbeddedBatch> {
      const body = {
        model: channel.upstream_model,
        input: { texts: batch.texts },
        parameters: { ...(batch.dimensions && { dimension: batch.dimensions }) },
      };
      const data = await postUpstreamJson(
        http,
        {
          url: dashscopeUrl(channel.base_url, DASHSCOPE_EMBEDDING_PATH),
          headers: bearerJson(channel.api_key),
          body: JSON.stringify(body),
          signal: ctx.signal,
        },
        dashscopeErrorPolicy,
        { schema: dashscopeEmbeddingSchema, what: 'embeddings answer' },
      );
      const vectors = inInputOrder(
        data.output.embeddings.map((e) => ({ index: e.text_index, embedding: e.embedding })),
        batch.texts.length,
      );
      if (!vectors) throw errors.upstream(502, 'upstream sent an invalid embeddings answer: one vector per input expected', true);
      return { vectors, tokens: data.usage?.total_tokens };
    },
  };
}
