/**
 * POST /v1/embeddings (SPEC.md §2.7): one string or a batch, vectors in order of `index`, as floats
 * or base64 of little-endian float32 (the official Node SDK asks for base64 by default). Billed per
 * input token; the hold reserves the estimated input.
 */
import { z } from 'zod';
import type { ModelInfo } from '../../catalog';
import { GatewayError } from '../../errors';
import type { Usage } from '../../pricing';
import { countTextTokens } from '../../tokens';
import { worstCaseUsage } from '../chat-completions/chat-plan';
import { ANSWER_PIECE_CHARS, fixedShape, type EndpointSpec, type PiecewiseAnswer } from '../endpoint-spec';

/** Inputs per request whatever the model says (the catalogue's `max_batch` may be lower). */
export const MAX_EMBEDDING_BATCH = 2048;
/** Characters per input: far above every model's token window, a cap on work before the model rules. */
export const MAX_EMBEDDING_INPUT_CHARS = 200_000;

const text = z
  .string()
  .min(1, 'input must not contain empty strings')
  .max(MAX_EMBEDDING_INPUT_CHARS, `each input is at most ${MAX_EMBEDDING_INPUT_CHARS} characters`);

export const embeddingRequestSchema = z.object({
  model: z.string().min(1),
  input: z.union([text, z.array(text).min(1, 'input must hold at least one string').max(MAX_EMBEDDING_BATCH)], {
    error: (iss) => (iss.code === 'invalid_union' ? 'input must be a string or an array of strings' : undefined),
  }),
  encoding_format: z.enum(['float', 'base64'], { error: 'encoding_format must be float or base64' }).optional(),
  dimensions: z.number().int().positive().optional(),
  user: z.string().max(256).optional(),
});
export type EmbeddingRequest = z.infer<typeof embeddingRequestSchema>;

export const embeddingResponseSchema = z.object({
  object: z.literal('list'),
  model: z.string(),
  data: z.array(
    z.object({
      object: z.literal('embedding'),
      index: z.number().int().nonnegative(),
      embedding: z.union([z.array(z.number()), z.string()]),
    }),
  ),
  usage: z.object({ prompt_tokens: z.number().int().nonnegative(), total_tokens: z.number().int().nonnegative() }),
});
export type EmbeddingResponse = z.infer<typeof embeddingResponseSchema>;

/** The inputs as a list (a single string is a batch of one). */
export function embeddingInputs(req: Pick<EmbeddingRequest, 'input'>): string[] {
  return typeof req.input === 'string' ? [req.input] : req.input;
}

/** The dimension a request gets on `model`: the one asked for, or the model's default. */
export function embeddingDimensions(model: ModelInfo, req: Pick<EmbeddingRequest, 'dimensions'>): number | undefined {
  return req.dimensions ?? model.embedding?.default_dimensions;
}

/** Estimated input tokens of a request (the hold's worst case, and usage when an upstream reports none). */
export function estimateEmbeddingTokens(req: Pick<EmbeddingRequest, 'input'>): number {
  return embeddingInputs(req).reduce((sum, t) => sum + countTextTokens(t), 0);
}

/** The model's rules: dimensions from its list, batch within its limit. */
export function planEmbedding(model: ModelInfo, req: EmbeddingRequest): Usage {
  const limits = model.embedding;
  if (req.dimensions !== undefined && limits && !limits.dimensions.includes(req.dimensions)) {
    throw new GatewayError({
      status: 400,
      code: 'invalid_value',
      param: 'dimensions',
      message: `Invalid 'dimensions': ${model.id} supports ${limits.dimensions.join(', ')} (default ${limits.default_dimensions}).`,
    });
  }
  const count = embeddingInputs(req).length;
  if (limits?.max_batch !== undefined && count > limits.max_batch) {
    throw new GatewayError({
      status: 400,
      code: 'invalid_value',
      param: 'input',
      message: `Invalid 'input': ${model.id} embeds at most ${limits.max_batch} inputs per request; got ${count}.`,
    });
  }
  return worstCaseUsage(estimateEmbeddingTokens(req), 0);
}

/**
 * A vector as the service answers it: base64 of little-endian float32 stays base64 whatever the client
 * asked (compact on the internal wire; the edge prints floats from it, `embeddingsInPieces`), floats
 * become base64 when the client asked for that.
 */
export function encodeEmbedding(vector: readonly number[] | string, format: EmbeddingRequest['encoding_format']): number[] | string {
  if (typeof vector === 'string' || format !== 'base64') return vector as number[] | string;
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((v, i) => bytes.writeFloatLE(v, i * 4));
  return bytes.toString('base64');
}

/** The numbers of a base64 vector (little-endian float32 values), as a client asking for floats gets them. */
function decodeFloat32Base64(base64: string): number[] {
  const bytes = Buffer.from(base64, 'base64');
  const out = new Array<number>(bytes.length >> 2);
  for (let i = 0; i < out.length; i++) out[i] = bytes.readFloatLE(i * 4);
  return out;
}

/**
 * A client asking for floats gets the answer printed in pieces of about ANSWER_PIECE_CHARS: a thousand
 * vectors of 2,048 floats are 41 MB of numbers, over a second of one event loop printed in one go.
 * Base64 vectors are decoded here, one at a time. A client asking for base64 gets the answer as the
 * service wrote it (strings print fast).
 */
export const embeddingsInPieces: PiecewiseAnswer<EmbeddingRequest, EmbeddingResponse> = {
  when: (req) => req.encoding_format !== 'base64',
  render: (answer) => floatPieces(answer),
};

function* floatPieces({ data, ...rest }: EmbeddingResponse): Generator<string> {
  const head = JSON.stringify(rest);
  let piece = `${head === '{}' ? '{' : `${head.slice(0, -1)},`}"data":[`;
  for (let i = 0; i < data.length; i++) {
    const item = data[i];
    const vector = typeof item.embedding === 'string' ? decodeFloat32Base64(item.embedding) : item.embedding;
    piece += `${i > 0 ? ',' : ''}${JSON.stringify({ ...item, embedding: vector })}`;
    if (piece.length >= ANSWER_PIECE_CHARS) {
      yield piece;
      piece = '';
    }
  }
  yield `${piece}]}`;
}

export const embeddingsSpec: EndpointSpec<EmbeddingRequest, EmbeddingResponse> = {
  name: 'embeddings',
  path: '/v1/embeddings',
  example: { model: 'zeta-4', input: 'Hello' },
  service: 'media',
  request: embeddingRequestSchema,
  response: embeddingResponseSchema,
  kinds: ['embedding'],
  units: ['input_tokens'],
  errorShape: fixedShape('B'),
  modelOf: (req) => req.model,
  isStream: () => false,
  plan: (model, req) => ({ worstCase: planEmbedding(model, req) }),
  inPieces: embeddingsInPieces,
};
