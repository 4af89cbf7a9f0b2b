/**
 * embeddings on the service side: the channel protocol's client embeds the texts (floats, or base64 as
 * the upstream sent them); the answer is built here once — vectors in input order (floats encoded when
 * the client asked for base64; base64 left for the edge to print as floats, contracts'
 * `embeddingsInPieces`), the model's public id, usage as the upstream counted it (estimated when it did
 * not say).
 */
import {
  embeddingDimensions,
  embeddingInputs,
  embeddingsSpec,
  encodeEmbedding,
  estimateEmbeddingTokens,
  type EmbeddingRequest,
  type EmbeddingResponse,
} from '@unigate/contracts';
import type { ServiceEndpoint } from '../adapter';
import { dashscopeEmbeddingsClient } from '../dashscope/dashscope-embeddings-client';
import type { EmbeddingUpstream } from '../embeddings/embedding-upstream';
import type { HttpClient } from '../http/http-client';
import { openAiEmbeddingsClient } from '../openai-embeddings/openai-embeddings-client';
import { voyageEmbeddingsClient } from '../voyage/voyage-embeddings-client';

const CLIENTS: Readonly<Record<string, (http: HttpClient) => EmbeddingUpstream>> = {
  'openai-embeddings': openAiEmbeddingsClient,
  voyage: voyageEmbeddingsClient,
  dashscope: dashscopeEmbeddingsClient,
};

export const embeddingsEndpoint: ServiceEndpoint<EmbeddingRequest, EmbeddingResponse> = {
  spec: embeddingsSpec,
  adapter(protocol, http) {
    const make = CLIENTS[protocol];
    if (!make) return undefined;
    const upstream = make(http);
    return {
      async call(channel, req, ctx) {
        const texts = embeddingInputs(req);
        const { vectors, tokens } = await upstream.embed(channel, { texts, dimensions: embeddingDimensions(ctx.model, req) }, ctx);
        const promptTokens = tokens ?? estimateEmbeddingTokens(req);
        return {
          value: {
            object: 'list',
            model: ctx.model.id,
            data: vectors.map((v, index) => ({ object: 'embedding', index, embedding: encodeEmbedding(v, req.encoding_format) })),
            usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
          },
          usage: { input_tokens: promptTokens },
        };
      },
    };
  },
};
