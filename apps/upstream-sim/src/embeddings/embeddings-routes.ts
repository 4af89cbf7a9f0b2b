/**
 * POST /v1/embeddings as OpenAI and Voyage answer it (both vendors use that path under their /v1
 * base): Voyage's requests are told apart by its own fields (`output_dimension`, `input_type`, ...)
 * and answered with its usage and `{detail}` errors. Vectors come from shared/embedding-vector.ts.
 */
import { countTextTokens, encodeEmbedding } from '@unigate/contracts';
import type { FastifyInstance } from 'fastify';
import { embeddingVector } from '../shared/embedding-vector';
import { openAiErrorBody, invalidRequestBody } from '../openai/openai-errors';
import type { SimState } from '../sim-state';

const PATH = '/v1/embeddings';
const VOYAGE_FIELDS = ['output_dimension', 'input_type', 'truncation', 'output_dtype'];
const DEFAULT_DIMENSIONS = 1024;

type Body = { model?: unknown; input?: unknown; dimensions?: unknown; output_dimension?: unknown; encoding_format?: unknown };

export async function embeddingsRoutes(app: FastifyInstance, opts: { state: SimState }): Promise<void> {
  app.post(PATH, async (req, reply) => {
    const body = (req.body ?? {}) as Body;
    const voyage = VOYAGE_FIELDS.some((f) => f in body);
    const fail = (status: number, message?: string) =>
      reply.code(status).send(voyage ? { detail: message ?? `Simulated error ${status}.` } : openAiErrorBody(status, message));
    const fault = opts.state.faults.take({ model: typeof body.model === 'string' ? body.model : undefined, path: PATH }, reply);
    if (fault?.latency_ms) await new Promise((r) => setTimeout(r, fault.latency_ms));
    if (fault?.status) return fail(fault.status, fault.message);

    const inputs = typeof body.input === 'string' ? [body.input] : body.input;
    if (!Array.isArray(inputs) || inputs.length === 0 || !inputs.every((t) => typeof t === 'string' && t.length > 0))
      return voyage
        ? fail(400, 'input must be a non-empty string or list of strings')
        : reply.code(400).send(invalidRequestBody("'input' is invalid", 'input'));
    const dims = Number(voyage ? (body.output_dimension ?? DEFAULT_DIMENSIONS) : (body.dimensions ?? DEFAULT_DIMENSIONS));
    if (!Number.isInteger(dims) || dims < 1 || dims > 4096) return fail(400, 'dimension out of range');
    // OpenAI takes float or base64, Voyage null or base64; base64 is the vector's little-endian float32 bytes.
    const base64 = body.encoding_format === 'base64';
    const formats = voyage ? [undefined, null, 'base64'] : [undefined, 'float', 'base64'];
    if (!formats.includes(body.encoding_format as string | null | undefined))
      return voyage
        ? fail(400, "encoding_format must be null or 'base64'")
        : reply.code(400).send(invalidRequestBody("'encoding_format' must be 'float' or 'base64'", 'encoding_format'));

    const tokens = (inputs as string[]).reduce((s, t) => s + countTextTokens(t), 0);
    // Listed in reverse: a client that trusts the list order instead of `index` is caught by tests.
    const data = (inputs as string[])
      .map((t, index) => ({
        object: 'embedding',
        embedding: encodeEmbedding(embeddingVector(t, dims), base64 ? 'base64' : 'float'),
        index,
      }))
      .reverse();
    return {
      object: 'list',
      data,
      model: body.model,
      usage: voyage ? { total_tokens: tokens } : { prompt_tokens: tokens, total_tokens: tokens },
    };
  });
}
