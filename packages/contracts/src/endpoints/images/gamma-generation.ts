/**
 * The gamma image family on /v1/images/generations (SPEC.md §2.5): the Interactions request in
 * snake_case, its per-model sizes, ratios, thinking levels and reference-image count, and the
 * multi-turn link (`previous_interaction_id`). Errors in Shape B.
 */
import { z } from 'zod';
import type { ModelInfo } from '../../catalog';
import { GatewayError } from '../../errors';
import type { Usage } from '../../pricing';
import { countTextTokens } from '../../tokens';
import { parseOrThrow } from '../../validation';
import { heldWindowInput, heldPromptTokens } from '../chat-completions/chat-plan';

const invalid = (param: string, message: string, code = 'invalid_value') => new GatewayError({ status: 400, code, param, message });

const IMAGE_MIME = ['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif'] as const;
/** Input tokens one reference image counts for (the hold's estimate; the upstream reports the real number). */
export const GAMMA_IMAGE_INPUT_TOKENS = 1290;

const textBlock = z.strictObject({ type: z.literal('text'), text: z.string().min(1).max(100_000) });
const imageBlock = z.strictObject({
  type: z.literal('image'),
  mime_type: z.enum(IMAGE_MIME, { error: `mime_type must be one of: ${IMAGE_MIME.join(', ')}` }),
  data: z
    .string()
    .min(1)
    .max(28 * 1024 * 1024)
    .refine((d) => !d.startsWith('data:'), 'data is base64 without a data: URI prefix')
    .refine((d) => /^[A-Za-z0-9+/]+={0,2}$/.test(d), 'data must be base64'),
});

export const gammaGenerationSchema = z.object({
  model: z.string().min(1),
  input: z.union(
    [
      z.string().min(1).max(100_000),
      z
        .array(z.discriminatedUnion('type', [textBlock, imageBlock]))
        .min(1)
        .max(32),
    ],
    {
      error: (iss) => (iss.code === 'invalid_union' ? 'input must be a string or an array of text and image blocks' : undefined),
    },
  ),
  system_instruction: z.string().max(100_000).optional(),
  response_format: z
    .strictObject({
      type: z.literal('image', { error: "response_format.type must be 'image'" }),
      mime_type: z.enum(['image/png', 'image/jpeg', 'image/webp']).optional(),
      image_size: z.string().max(8).optional(),
      aspect_ratio: z.string().max(8).optional(),
    })
    .optional(),
  generation_config: z
    .strictObject({ thinking_level: z.string().max(16).optional(), temperature: z.number().min(0).max(2).optional() })
    .optional(),
  previous_interaction_id: z
    .string()
    .regex(/^v1_[A-Za-z0-9_-]{1,200}$/, "previous_interaction_id is an interaction's id (v1_...)")
    .optional(),
  tools: z
    .array(z.looseObject({ type: z.string().optional() }))
    .max(32)
    .optional(),
  store: z.boolean().optional(),
});
export type GammaGenerationRequest = z.infer<typeof gammaGenerationSchema>;

/** The size a gamma request is priced at: `response_format.image_size`, 1K by default (SPEC.md §2.5). */
export const gammaImageSize = (req: Pick<GammaGenerationRequest, 'response_format'>) => req.response_format?.image_size ?? '1K';

export function planGammaGeneration(model: ModelInfo, body: unknown): Usage {
  const req = parseOrThrow(gammaGenerationSchema, body);
  const limits = model.image ?? {};
  const size = req.response_format?.image_size;
  if (size !== undefined && !(limits.image_sizes ?? []).includes(size)) {
    const hint = size === '512' ? " (write '512px': the suffix is required)" : '';
    throw invalid(
      'response_format.image_size',
      `Invalid 'response_format.image_size' '${size}'${hint}: ${model.id} takes ${(limits.image_sizes ?? []).join(', ')}.`,
    );
  }
  const ratio = req.response_format?.aspect_ratio;
  if (ratio !== undefined && !(limits.aspect_ratios ?? []).includes(ratio))
    throw invalid(
      'response_format.aspect_ratio',
      `Invalid 'response_format.aspect_ratio' '${ratio}': ${model.id} takes ${(limits.aspect_ratios ?? []).join(', ')}.`,
    );
  const level = req.generation_config?.thinking_level;
  if (level !== undefined) {
    if (!limits.thinking_levels)
      throw invalid('generation_config.thinking_level', `${model.id} does not take a thinking_level.`, 'unsupported_parameter');
    if (!limits.thinking_levels.includes(level))
      throw invalid(
        'generation_config.thinking_level',
        `Invalid 'generation_config.thinking_level': ${model.id} takes ${limits.thinking_levels.join(', ')}.`,
      );
  }
  const blocks = typeof req.input === 'string' ? [] : req.input;
  const images = blocks.filter((b) => b.type === 'image').length;
  if (images > (limits.max_reference_images ?? 0))
    throw invalid('input', `${model.id} takes at most ${limits.max_reference_images ?? 0} reference images; got ${images}.`);
  const text = typeof req.input === 'string' ? req.input : blocks.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
  const prompt = countTextTokens(text + (req.system_instruction ?? '')) + images * GAMMA_IMAGE_INPUT_TOKENS;
  const estimate = heldPromptTokens(prompt);
  // docs/images.md, "Billing": a continuation holds the model's window.
  const input = req.previous_interaction_id ? heldWindowInput(model, estimate) : estimate;
  return { input_tokens: input, images: 1, image_size: gammaImageSize(req) };
}
