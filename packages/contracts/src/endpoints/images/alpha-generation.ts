/**
 * The alpha image family on /v1/images/generations (SPEC.md §2.3): DashScope's multimodal request,
 * its rules, and its errors — Shape A with `code: "InvalidParameter"`, unknown alpha models included.
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import type { ModelInfo } from '../../catalog';
import { GatewayError } from '../../errors';
import type { Usage } from '../../pricing';
import { parseOrError } from '../../validation';
import { bareHostname, isPrivateHost } from '../private-host';

export const invalidParameter = (message: string, param: string | null = null) =>
  new GatewayError({ status: 400, code: 'InvalidParameter', message, param });

const block = z.strictObject({ text: z.string().min(1).max(6000).optional(), image: z.string().min(1).max(4096).optional() });

export const alphaGenerationSchema = z.object({
  model: z.string().min(1),
  input: z.object({
    messages: z.array(z.object({ role: z.string(), content: z.array(block).min(1).max(8) })),
  }),
  parameters: z
    .object({
      size: z.string().max(16).optional(),
      n: z.number().int().optional(),
      seed: z.number().int().min(0).max(2_147_483_647).optional(),
      watermark: z.boolean().optional(),
      negative_prompt: z.string().max(1000).optional(),
      prompt_extend: z.boolean().optional(),
    })
    .optional(),
});
export type AlphaGenerationRequest = z.infer<typeof alphaGenerationSchema>;

/** An alpha model name the catalogue does not know is the family's InvalidParameter (SPEC.md §7), not a 404. */
export const isAlphaImageName = (model: string) => /^alpha-image/.test(model);

/** Public https URL by its look: no other scheme, no IP literal, no local names (`LOCALHOST.` included). */
export function isPublicHttpsUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  // Reference images are named by host, never by address.
  return !isIP(bareHostname(url.hostname)) && !isPrivateHost(url.hostname);
}

export function planAlphaGeneration(model: ModelInfo, body: unknown): Usage {
  const parsed = parseOrError(alphaGenerationSchema, body);
  if (!parsed.success) throw invalidParameter(parsed.error.message, parsed.error.param);
  const req = parsed.data;
  const limits = model.image ?? {};
  if (req.input.messages.length !== 1) throw invalidParameter('input.messages must hold exactly one message.', 'input.messages');
  const [message] = req.input.messages;
  if (message.role !== 'user') throw invalidParameter("The message's role must be 'user'.", 'input.messages[0].role');
  const blocks = message.content;
  blocks.forEach((b, i) => {
    if ((b.text === undefined) === (b.image === undefined))
      throw invalidParameter('A content block holds either text or image, not both or neither.', `input.messages[0].content[${i}]`);
    if (b.image !== undefined && !isPublicHttpsUrl(b.image))
      throw invalidParameter('A reference image must be a public https URL.', `input.messages[0].content[${i}].image`);
  });
  if (!blocks.some((b) => b.text !== undefined))
    throw invalidParameter('The message needs at least one text block.', 'input.messages[0].content');
  const images = blocks.filter((b) => b.image !== undefined).length;
  const [min, max] = [limits.min_reference_images ?? 0, limits.max_reference_images ?? 0];
  if (images < min || images > max)
    throw invalidParameter(
      max === 0
        ? `${model.id} is a text-to-image model: it takes no reference images.`
        : `${model.id} needs ${min} to ${max} reference images; got ${images}.`,
      'input.messages[0].content',
    );
  const p = req.parameters ?? {};
  if (p.size !== undefined && !(limits.sizes ?? []).includes(p.size))
    throw invalidParameter(`Unsupported size '${p.size}'. Allowed: ${(limits.sizes ?? []).join(', ')}.`, 'parameters.size');
  if (p.n !== undefined && p.n !== 1) throw invalidParameter('parameters.n must be 1.', 'parameters.n');
  return { images: 1 };
}
