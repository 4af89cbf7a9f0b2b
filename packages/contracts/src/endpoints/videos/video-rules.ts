/**
 * The per-model rules of a video submission (SPEC.md §2.6), from the model's catalogue limits: the
 * suffix (t2v, i2v, r2v) decides the `input` fields, the format (2.6 or 2.7) how `input` and
 * `parameters` are written, and the top-level duration and resolution must be what `parameters`
 * repeats in that format. Every refusal is Shape A `InvalidParameter` naming the field.
 */
import { z } from 'zod';
import type { ModelInfo, VideoLimits } from '../../catalog';
import { invalidParameter } from '../images/alpha-generation';
import { checkWebhookUrl } from './webhook-url';

export const VIDEO_MEDIA_TYPES = ['reference_video', 'reference_image', 'first_frame', 'driving_audio'] as const;
/** Media of the content-generation format (first/last frame, reference images). */
export const CONTENT_MEDIA_TYPES = ['first_frame', 'last_frame', 'reference_image'] as const;

export const videoGenerationRequestSchema = z.object({
  model: z.string().min(1),
  duration: z.number().int().optional(),
  resolution: z.string().max(16).optional(),
  aspect_ratio: z.string().max(16).optional(),
  input: z.looseObject({}),
  parameters: z.looseObject({}).optional(),
  webhook_url: z.string().max(2048).optional(),
});
export type VideoGenerationRequest = z.infer<typeof videoGenerationRequestSchema>;

/** What the rules settled: the billed seconds and resolution. */
export interface VideoPlan {
  duration: number;
  resolution: string;
}

type Json = Record<string, unknown>;
const isUrl = (v: unknown) => typeof v === 'string' && /^https?:\/\/\S+$/.test(v);
const isBool = (v: unknown) => v === undefined || typeof v === 'boolean';

export function planVideo(model: ModelInfo, req: VideoGenerationRequest, allowPrivateWebhooks: boolean): VideoPlan {
  const limits = model.video;
  if (!limits) throw invalidParameter(`Model '${model.id}' does not generate video.`, 'model');
  const duration = req.duration ?? limits.default_duration_seconds;
  const resolution = req.resolution ?? limits.default_resolution;
  if (duration < 1 || duration > limits.max_duration_seconds)
    throw invalidParameter(`duration must be between 1 and ${limits.max_duration_seconds} seconds for ${model.id}.`, 'duration');
  if (!limits.resolutions.includes(resolution))
    throw invalidParameter(
      `resolution '${resolution}' is not offered for ${model.id}; use ${limits.resolutions.join(', ')}.`,
      'resolution',
    );
  const ratio = req.aspect_ratio ?? '16:9';
  if (!limits.aspect_ratios.includes(ratio))
    throw invalidParameter(`aspect_ratio must be one of ${limits.aspect_ratios.join(', ')}.`, 'aspect_ratio');
  checkInput(limits, req.input);
  const params = req.parameters ?? {};
  if (params.duration !== duration)
    throw invalidParameter(`parameters.duration must repeat duration (${duration}).`, 'parameters.duration');
  if (limits.api_format === '2.7') checkParameters27(params, resolution);
  else if (limits.api_format === 'content') checkContentParameters(params, resolution);
  else checkParameters26(params, resolution, ratio);
  if (req.webhook_url !== undefined) checkWebhookUrl(req.webhook_url, allowPrivateWebhooks);
  return { duration, resolution };
}

function checkInput(limits: VideoLimits, input: Json): void {
  if (typeof input.prompt !== 'string' || input.prompt.trim() === '')
    throw invalidParameter('input.prompt must be a non-empty string.', 'input.prompt');
  const mode = limits.input_mode;
  const present = (k: string) => input[k] !== undefined;
  if (limits.api_format === 'content') return checkContentInput(mode, input);
  if (limits.api_format === '2.7') {
    for (const k of ['img_url', 'audio_url', 'reference_urls'])
      if (present(k)) throw invalidParameter(`input.${k} is a 2.6 field; 2.7 models take input.media.`, `input.${k}`);
    if (mode === 't2v') {
      if (present('media')) throw invalidParameter('text-to-video models take input.prompt only.', 'input.media');
      return;
    }
    const media = input.media;
    if (!Array.isArray(media) || media.length === 0) throw invalidParameter('input.media must be a non-empty array.', 'input.media');
    media.forEach((m: unknown, i) => {
      const item = (m ?? {}) as Json;
      if (!VIDEO_MEDIA_TYPES.includes(item.type as never))
        throw invalidParameter(`input.media[${i}].type must be one of ${VIDEO_MEDIA_TYPES.join(', ')}.`, `input.media[${i}].type`);
      if (!isUrl(item.url)) throw invalidParameter(`input.media[${i}].url must be an http(s) URL.`, `input.media[${i}].url`);
    });
    const types = media.map((m: Json) => m.type);
    if (mode === 'i2v' && !types.includes('first_frame'))
      throw invalidParameter('image-to-video models need a first_frame item in input.media.', 'input.media');
    if (mode === 'r2v' && !types.some((t) => t === 'reference_image' || t === 'reference_video'))
      throw invalidParameter('reference-to-video models need a reference_image or reference_video item in input.media.', 'input.media');
    return;
  }
  if (present('media')) throw invalidParameter('input.media is a 2.7 field; this model takes the 2.6 input fields.', 'input.media');
  const allowed = { t2v: [], i2v: ['img_url', 'audio_url'], r2v: ['reference_urls'] }[mode];
  for (const k of ['img_url', 'audio_url', 'reference_urls'])
    if (present(k) && !allowed.includes(k as never)) throw invalidParameter(`input.${k} does not apply to ${mode} models.`, `input.${k}`);
  if (mode === 'i2v') {
    if (!isUrl(input.img_url)) throw invalidParameter('input.img_url must be one http(s) URL.', 'input.img_url');
    if (present('audio_url') && !isUrl(input.audio_url))
      throw invalidParameter('input.audio_url must be one http(s) URL.', 'input.audio_url');
  }
  if (mode === 'r2v') {
    const refs = input.reference_urls;
    if (!Array.isArray(refs) || refs.length === 0 || !refs.every(isUrl))
      throw invalidParameter('input.reference_urls must be a non-empty array of http(s) URLs.', 'input.reference_urls');
  }
}

function checkParameters27(params: Json, resolution: string): void {
  if (params.size !== undefined)
    throw invalidParameter('parameters.size is a 2.6 field; 2.7 models take parameters.resolution.', 'parameters.size');
  const expected = resolution.toUpperCase();
  if (params.resolution !== expected)
    throw invalidParameter(`parameters.resolution must repeat resolution as '${expected}'.`, 'parameters.resolution');
  for (const k of ['prompt_extend', 'watermark'])
    if (!isBool(params[k])) throw invalidParameter(`parameters.${k} must be a boolean.`, `parameters.${k}`);
}

function checkParameters26(params: Json, resolution: string, ratio: string): void {
  if (params.resolution !== undefined)
    throw invalidParameter('parameters.resolution is a 2.7 field; this model takes parameters.size.', 'parameters.resolution');
  const expected = sizeFor(resolution, ratio);
  if (!expected)
    throw invalidParameter(
      `aspect_ratio ${ratio} is not offered at ${resolution}; use ${Object.keys(sizesAt(resolution)).join(', ')}.`,
      'aspect_ratio',
    );
  if (params.size !== expected)
    throw invalidParameter(`parameters.size must repeat resolution and aspect_ratio as '${expected}'.`, 'parameters.size');
  for (const k of ['audio', 'prompt_extend', 'watermark'])
    if (!isBool(params[k])) throw invalidParameter(`parameters.${k} must be a boolean.`, `parameters.${k}`);
  if (params.shot_type !== undefined && params.shot_type !== 'single' && params.shot_type !== 'multi')
    throw invalidParameter('parameters.shot_type must be single or multi.', 'parameters.shot_type');
}

/**
 * The sizes the 2.6 format takes, by resolution and aspect ratio: exactly the vendor's list (its
 * wan 2.5/2.6 video reference). Not one rounding rule (720p 1:1 is 960*960, 4:3 is 1088*832), and
 * 480p has no 4:3 or 3:4.
 */
const SIZES_26: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  '480p': { '16:9': '832*480', '9:16': '480*832', '1:1': '624*624' },
  '720p': { '16:9': '1280*720', '9:16': '720*1280', '1:1': '960*960', '4:3': '1088*832', '3:4': '832*1088' },
  '1080p': { '16:9': '1920*1080', '9:16': '1080*1920', '1:1': '1440*1440', '4:3': '1632*1248', '3:4': '1248*1632' },
};

const sizesAt = (resolution: string) => (Object.hasOwn(SIZES_26, resolution) ? SIZES_26[resolution] : {});

/** Width*height of a resolution at an aspect ratio, as 2.6 writes it (720p 16:9 → `1280*720`); undefined where the vendor has none. */
export function sizeFor(resolution: string, ratio: string): string | undefined {
  const sizes = sizesAt(resolution);
  return Object.hasOwn(sizes, ratio) ? sizes[ratio] : undefined;
}

/** Content-generation format: `prompt`, and `media[]` of first/last frames or reference images (i2v: a first frame). */
function checkContentInput(mode: VideoLimits['input_mode'], input: Json): void {
  const media = input.media ?? [];
  if (!Array.isArray(media)) throw invalidParameter('input.media must be an array.', 'input.media');
  media.forEach((m: unknown, i) => {
    const item = (m ?? {}) as Json;
    if (!CONTENT_MEDIA_TYPES.includes(item.type as never))
      throw invalidParameter(`input.media[${i}].type must be one of ${CONTENT_MEDIA_TYPES.join(', ')}.`, `input.media[${i}].type`);
    if (!isUrl(item.url)) throw invalidParameter(`input.media[${i}].url must be an http(s) URL.`, `input.media[${i}].url`);
  });
  const types = media.map((m: Json) => m.type);
  if (mode === 't2v' && media.length > 0) throw invalidParameter('text-to-video models take input.prompt only.', 'input.media');
  if (mode === 'i2v' && !types.includes('first_frame'))
    throw invalidParameter('image-to-video models need a first_frame item in input.media.', 'input.media');
}

function checkContentParameters(params: Json, resolution: string): void {
  if (params.resolution !== resolution)
    throw invalidParameter(`parameters.resolution must repeat resolution ('${resolution}').`, 'parameters.resolution');
  if (
    params.seed !== undefined &&
    !(Number.isInteger(params.seed) && (params.seed as number) >= -1 && (params.seed as number) <= 4_294_967_295)
  )
    throw invalidParameter('parameters.seed must be an integer from -1 to 4294967295.', 'parameters.seed');
  for (const k of ['camera_fixed', 'watermark', 'generate_audio', 'draft'])
    if (!isBool(params[k])) throw invalidParameter(`parameters.${k} must be a boolean.`, `parameters.${k}`);
}
