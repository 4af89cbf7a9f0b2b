/**
 * POST /v1/images/generations: one path, a request format per model family (SPEC.md §2.3 alpha, §2.5
 * gamma; the delta family in OpenAI's images format with freeform sizes, §8). The public schema only
 * needs the model; once the model is known its family's schema and rules run in `plan`, and errors
 * take the family's shape (alpha: Shape A).
 */
import { z } from 'zod';
import type { ModelInfo } from '../../catalog';
import { GatewayError } from '../../errors';
import type { Usage } from '../../pricing';
import { parseOrThrow } from '../../validation';
import type { EndpointSpec } from '../endpoint-spec';
import { alphaGenerationSchema, invalidParameter, isAlphaImageName, planAlphaGeneration } from './alpha-generation';
import { checkDeltaOptions, checkServedOn, deltaWorstCase } from './delta-rules';
import { gammaGenerationSchema, planGammaGeneration } from './gamma-generation';
import { openAiImagesResponseSchema } from './image-response';

export const IMAGE_GENERATIONS_PATH = '/v1/images/generations';

export const deltaGenerationSchema = z.object({
  model: z.string().min(1),
  prompt: z.string().min(1, 'prompt must not be empty').max(32_000),
  n: z.number().int().min(1).max(10).optional(),
  size: z.string().max(16).optional(),
  quality: z.string().max(16).optional(),
  response_format: z.enum(['b64_json', 'url'], { error: 'response_format must be b64_json or url' }).optional(),
  output_format: z.string().max(8).optional(),
  output_compression: z.number().int().min(0).max(100).optional(),
  background: z.enum(['transparent', 'opaque', 'auto'], { error: 'background must be transparent, opaque or auto' }).optional(),
  moderation: z.enum(['auto', 'low']).optional(),
  user: z.string().max(256).optional(),
});
export type DeltaGenerationRequest = z.infer<typeof deltaGenerationSchema>;

/** Any family's request: the model first; the rest is the family's (checked in plan and by the adapter). */
export const imageGenerationRequestSchema = z.looseObject({ model: z.string().min(1) });
export type ImageGenerationRequest = z.infer<typeof imageGenerationRequestSchema>;

/** The family's rules and worst case; a family without a request format here is refused plainly (501). */
export function planImageGeneration(model: ModelInfo, req: ImageGenerationRequest): Usage {
  checkServedOn(model, IMAGE_GENERATIONS_PATH);
  if (model.family === 'delta') {
    const delta = parseOrThrow(deltaGenerationSchema, req);
    checkDeltaOptions(model, delta, true);
    return deltaWorstCase(model, delta, 0);
  }
  if (model.family === 'alpha') return planAlphaGeneration(model, req);
  if (model.family === 'gamma') return planGammaGeneration(model, req);
  throw new GatewayError({
    status: 501,
    code: 'not_implemented',
    type: 'invalid_request_error',
    message: `Image generation with the ${model.family} family (${model.id}) is not available on this gateway yet.`,
  });
}

export const imageGenerationsSpec: EndpointSpec<ImageGenerationRequest, unknown> = {
  name: 'images.generations',
  path: IMAGE_GENERATIONS_PATH,
  example: { model: 'delta-image-2', prompt: 'A lighthouse at dawn', size: '1024x1024' },
  service: 'media',
  request: imageGenerationRequestSchema,
  requestFormats: {
    delta: { models: 'delta-image-*', schema: deltaGenerationSchema },
    alpha: { models: 'alpha-image-*', schema: alphaGenerationSchema },
    gamma: { models: 'gamma-*-image*', schema: gammaGenerationSchema },
  },
  response: z.union([openAiImagesResponseSchema, z.looseObject({})]),
  kinds: ['image', 'image-edit'],
  units: ['input_tokens', 'image_input_tokens', 'output_tokens', 'images', 'image_size'],
  // The alpha family speaks Shape A (SPEC.md §7), every other family Shape B.
  errorShape: (family) => (family === 'alpha' ? 'A' : 'B'),
  modelOf: (req) => req.model,
  isStream: () => false,
  plan: (model, req) => ({ worstCase: planImageGeneration(model, req) }),
  localize: (answer, origin) => absoluteImageLinks(answer, origin),
  unknownModel: (model) =>
    isAlphaImageName(model) ? { family: 'alpha', error: invalidParameter(`Model '${model}' is not recognised.`, 'model') } : undefined,
};

/** Alpha answers carry gateway-relative result links; the client gets them on the origin it called. */
function absoluteImageLinks(answer: unknown, origin: string): unknown {
  const choices = (answer as { output?: { choices?: Array<{ message?: { content?: Array<{ image?: unknown }> } }> } })?.output?.choices;
  for (const choice of choices ?? [])
    for (const item of choice.message?.content ?? [])
      if (typeof item.image === 'string' && item.image.startsWith('/')) item.image = origin + item.image;
  return answer;
}
