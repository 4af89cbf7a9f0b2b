/**
 * The delta image family's rules (SPEC.md §2.4, §8; reference/openai.md), shared by generations and
 * edits: sizes (the model's list, or freeform `WxH` on generations where the model allows it),
 * quality aliases, output format and background, and the worst case in the family's token units.
 */
import type { ModelInfo } from '../../catalog';
import { GatewayError } from '../../errors';
import type { Usage } from '../../pricing';
import { countTextTokens } from '../../tokens';
import { heldPromptTokens } from '../chat-completions/chat-plan';

export const invalidImageRequest = (param: string | null, message: string, code = 'invalid_value') =>
  new GatewayError({ status: 400, code, param, message });

/** The token-priced delta models (`delta-image-*`); the legacy `delta-e-2` is priced per image. */
export const isTokenPriced = (model: ModelInfo) => model.prices.output_per_mtok > 0;

export interface DeltaOptions {
  size?: string;
  quality?: string;
  n?: number;
  output_format?: string;
  background?: string;
  response_format?: string;
  output_compression?: number;
}

/** `standard` and `hd` are the legacy names of the native levels (SPEC.md §2.4). */
const QUALITY_ALIASES: Readonly<Record<string, string>> = { standard: 'medium', hd: 'high' };
export const nativeQuality = (q: string | undefined) => (q === undefined ? undefined : (QUALITY_ALIASES[q] ?? q));

/** The model's rules for the options both delta endpoints share; `freeform` allows `WxH` within the model's ceiling. */
export function checkDeltaOptions(model: ModelInfo, req: DeltaOptions, freeform: boolean): void {
  const limits = model.image ?? {};
  const tokenPriced = isTokenPriced(model);
  if (req.size !== undefined && !(limits.sizes ?? []).includes(req.size)) {
    const ceiling = freeform ? limits.freeform_size : undefined;
    if (!ceiling)
      throw invalidImageRequest('size', `Invalid 'size': ${model.id} takes ${(limits.sizes ?? []).join(', ')} on this endpoint.`);
    checkFreeformSize(req.size, ceiling);
  }
  if (req.n !== undefined && req.n > (limits.max_n ?? 1))
    throw invalidImageRequest('n', `Invalid 'n': ${model.id} makes at most ${limits.max_n ?? 1} images per call.`);
  if (req.quality !== undefined && !(limits.qualities ?? []).includes(req.quality))
    throw invalidImageRequest('quality', `Invalid 'quality': ${model.id} takes ${(limits.qualities ?? []).join(', ')}.`);
  if (req.response_format === 'url' && tokenPriced)
    throw invalidImageRequest(
      'response_format',
      `${model.id} always answers b64_json; 'url' is for delta-e-2 only.`,
      'unsupported_parameter',
    );
  if (!tokenPriced) {
    for (const field of ['output_format', 'background', 'output_compression'] as const)
      if (req[field] !== undefined) throw invalidImageRequest(field, `${model.id} does not take '${field}'.`, 'unsupported_parameter');
    return;
  }
  if (req.output_format !== undefined && !(limits.output_formats ?? []).includes(req.output_format))
    throw invalidImageRequest('output_format', `Invalid 'output_format': ${model.id} outputs ${(limits.output_formats ?? []).join(', ')}.`);
  if (req.background === 'transparent' && (req.output_format ?? 'png') === 'jpeg')
    throw invalidImageRequest('background', "Invalid 'background': transparent needs output_format png or webp.");
}

/** `WxH` within SPEC.md §8's ceiling: each side at most max_side, multiples of 16, long:short at most max_ratio. */
export function checkFreeformSize(
  size: string,
  c: { max_side: number; multiple_of: number; max_ratio: number },
): { width: number; height: number } {
  const m = /^(\d{1,5})x(\d{1,5})$/.exec(size);
  const fail = (why: string) => invalidImageRequest('size', `Invalid 'size' ${JSON.stringify(size)}: ${why}.`);
  if (!m) throw fail(`use auto or WIDTHxHEIGHT`);
  const [width, height] = [Number(m[1]), Number(m[2])];
  if (width < c.multiple_of || height < c.multiple_of || width > c.max_side || height > c.max_side)
    throw fail(`each side must be ${c.multiple_of} to ${c.max_side} px`);
  if (width % c.multiple_of || height % c.multiple_of) throw fail(`each side must be a multiple of ${c.multiple_of}`);
  if (Math.max(width, height) / Math.min(width, height) > c.max_ratio)
    throw fail(`the long side may be at most ${c.max_ratio} times the short side`);
  return { width, height };
}

/** Output tokens of one image at high quality, the most a size can cost (1024x1024: 4,160). */
export function outputTokensOf(size: string | undefined): number {
  const m = /^(\d+)x(\d+)$/.exec(size ?? '');
  const pixels = m ? Number(m[1]) * Number(m[2]) : 1536 * 1024; // auto: the largest fixed size
  return Math.ceil((4160 * Math.max(pixels, 1024 * 1024)) / (1024 * 1024));
}

/** Vision tokens one input image may cost at most (high input fidelity). */
export const MAX_IMAGE_INPUT_TOKENS = 6240;

/** The worst case: the prompt, every input image, every output image at high quality; per image for delta-e-2. */
export function deltaWorstCase(model: ModelInfo, req: { prompt: string } & DeltaOptions, inputImages: number): Usage {
  const n = req.n ?? 1;
  if (!isTokenPriced(model)) return { images: n, image_size: req.size ?? model.image?.default_size };
  return {
    input_tokens: heldPromptTokens(countTextTokens(req.prompt)),
    image_input_tokens: inputImages * MAX_IMAGE_INPUT_TOKENS,
    output_tokens: outputTokensOf(req.size) * n,
  };
}

/** A model served on another image endpoint only (`endpoints` in the catalogue). */
export function checkServedOn(model: ModelInfo, path: string, code = 'model_not_supported'): void {
  if (model.endpoints && !model.endpoints.includes(path as never))
    throw invalidImageRequest('model', `The model '${model.id}' is not served on ${path}; it serves ${model.endpoints.join(', ')}.`, code);
}
