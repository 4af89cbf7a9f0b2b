/** What the catalog knows about a model and how to reach it. */
import { z } from 'zod';

export const MODEL_KINDS = ['chat', 'image', 'image-edit', 'video', 'embedding', 'speech'] as const;
export type ModelKind = (typeof MODEL_KINDS)[number];

/** Prices in integer micro-USD. Token prices are per million tokens. */
export const priceSchema = z.object({
  input_per_mtok: z.number().int().nonnegative().default(0),
  cached_input_per_mtok: z.number().int().nonnegative().optional(),
  /** Input tokens written to the upstream's prompt cache (Anthropic's cache_creation_input_tokens); defaults to input_per_mtok. */
  cache_write_input_per_mtok: z.number().int().nonnegative().optional(),
  /** Input tokens written to a one-hour prompt cache (Anthropic's `ttl: "1h"`); defaults to cache_write_input_per_mtok. */
  cache_write_1h_input_per_mtok: z.number().int().nonnegative().optional(),
  output_per_mtok: z.number().int().nonnegative().default(0),
  per_image: z.number().int().nonnegative().optional(),
  per_video_second: z.number().int().nonnegative().optional(),
  per_mchar: z.number().int().nonnegative().optional(),
  /** Input image tokens when they cost more than text input (delta image edits: usage.input_tokens_details.image_tokens). */
  image_input_per_mtok: z.number().int().nonnegative().optional(),
  /** Per output image by requested size (`1K`, `2K`, `4K`, `512px`, `256x256`, ...); falls back to per_image. */
  per_image_by_size: z.record(z.string(), z.number().int().nonnegative()).optional(),
  /** Per video second by resolution (`480p`, `720p`, `1080p`); falls back to per_video_second. */
  per_video_second_by_resolution: z.record(z.string(), z.number().int().nonnegative()).optional(),
});
export type Prices = z.infer<typeof priceSchema>;

/**
 * One way to reach a model upstream. `protocol` names the wire protocol an adapter in
 * packages/providers speaks (its registry lists them); the catalog checks it at start.
 */
export const channelSchema = z.object({
  id: z.string(),
  protocol: z.string(),
  base_url: z.string(),
  /** Resolved secret; never logged. Empty when the upstream needs none (the simulator). */
  api_key: z.string(),
  upstream_model: z.string(),
  priority: z.number(),
  weight: z.number(),
});
export type Channel = z.infer<typeof channelSchema>;

/** The public operations (SPEC.md §4) a model may be called on; a model's kind alone cannot say this. */
export const MODEL_ENDPOINTS = [
  '/v1/chat/completions',
  '/v1/messages',
  '/v1/responses',
  '/v1/images/generations',
  '/v1/images/edits',
  '/v1/videos/generations',
  '/v1/embeddings',
  '/v1/audio/speech',
] as const;
export type ModelEndpoint = (typeof MODEL_ENDPOINTS)[number];

const count = z.number().int().nonnegative();
const strings = z.array(z.string());

/** Chat features the edge may check or advertise. */
export const chatLimitsSchema = z.object({
  vision: z.boolean().optional(),
  tools: z.boolean().optional(),
  /** Always-on or optional thinking; reasoning tokens are billed as output. */
  reasoning: z.boolean().optional(),
  /** Allowed `reasoning_effort` values, when the field is accepted at all. */
  reasoning_efforts: strings.optional(),
  /** Accepts video/audio URLs in user messages (SPEC.md §4 note on gamma chat). */
  media_input: z.boolean().optional(),
});
export type ChatLimits = z.infer<typeof chatLimitsSchema>;

export const imageLimitsSchema = z.object({
  /** Allowed `size` / `parameters.size` values in the family's own notation (`1024*1024`, `1024x1024`). */
  sizes: strings.optional(),
  default_size: z.string().optional(),
  /** Gamma interaction-style `response_format.image_size` values. */
  image_sizes: strings.optional(),
  aspect_ratios: strings.optional(),
  /** Images per call. */
  max_n: count.optional(),
  /** Reference/input images: editing models need at least min (0 = text-to-image). */
  min_reference_images: count.optional(),
  max_reference_images: count.optional(),
  supports_mask: z.boolean().optional(),
  output_formats: strings.optional(),
  qualities: strings.optional(),
  /** `generation_config.thinking_level` values, when supported. */
  thinking_levels: strings.optional(),
  /** Freeform `WxH` on /v1/images/generations (SPEC.md §8). */
  freeform_size: z.object({ max_side: count, multiple_of: count, max_ratio: z.number().positive() }).optional(),
});
export type ImageLimits = z.infer<typeof imageLimitsSchema>;

export const videoLimitsSchema = z.object({
  /** t2v, i2v or r2v: which `input` fields apply (SPEC.md §2.6). */
  input_mode: z.enum(['t2v', 'i2v', 'r2v']),
  /**
   * Request format: `2.6` (size/img_url/reference_urls) or `2.7` (resolution/media) for the beta
   * family; `content` for content-generation families (media with first/last frame, seed; docs/video.md).
   */
  api_format: z.enum(['2.6', '2.7', 'content']),
  resolutions: strings,
  default_resolution: z.string(),
  aspect_ratios: strings,
  default_duration_seconds: count,
  max_duration_seconds: count,
});
export type VideoLimits = z.infer<typeof videoLimitsSchema>;

export const embeddingLimitsSchema = z.object({
  dimensions: z.array(count),
  default_dimensions: count,
  max_input_tokens: count.optional(),
  /** Inputs per request. */
  max_batch: count.optional(),
});
export type EmbeddingLimits = z.infer<typeof embeddingLimitsSchema>;

export const speechLimitsSchema = z.object({
  voices: strings,
  default_voice: z.string(),
  response_formats: strings,
  default_response_format: z.string(),
  supports_instructions: z.boolean(),
});
export type SpeechLimits = z.infer<typeof speechLimitsSchema>;

export const modelInfoSchema = z.object({
  id: z.string(),
  family: z.string(),
  kind: z.enum(MODEL_KINDS),
  owned_by: z.string(),
  created: z.number().int(),
  context_window: count.optional(),
  max_output_tokens: count.optional(),
  /**
   * The most one input image can cost on this chat model, in tokens: vendors scale a large image down
   * to a bound, and this is what an image at that bound costs (about 1,600 at Anthropic's 1.15
   * megapixels). A hold reserves it per image; without it, or below IMAGE_BLOCK_TOKENS, an image is
   * held at IMAGE_BLOCK_TOKENS (tokens.ts).
   */
  max_image_tokens: count.optional(),
  prices: priceSchema,
  /** Optional catalogue detail (filled for every built-in model; YAML-added models may omit it). */
  description: z.string().optional(),
  endpoints: z.array(z.enum(MODEL_ENDPOINTS)).optional(),
  chat: chatLimitsSchema.optional(),
  image: imageLimitsSchema.optional(),
  video: videoLimitsSchema.optional(),
  embedding: embeddingLimitsSchema.optional(),
  speech: speechLimitsSchema.optional(),
});
export type ModelInfo = z.infer<typeof modelInfoSchema>;

/**
 * The chat `reasoning_effort` a model takes for an effort a client asked for in another format
 * (Anthropic's thinking and effort, the Responses API's `reasoning.effort`), or undefined when the
 * model has no reasoning switch or does not take that effort (omega-k3 takes only `max`).
 */
export function acceptedReasoningEffort(model: Pick<ModelInfo, 'chat'>, effort: string): string | undefined {
  if (!model.chat?.reasoning) return undefined;
  const allowed = model.chat.reasoning_efforts;
  return !allowed || allowed.includes(effort) ? effort : undefined;
}

export const modelRouteSchema = z.object({
  model: modelInfoSchema,
  /** Ordered: try the first, fail over down the list. */
  channels: z.array(channelSchema),
});
export type ModelRoute = z.infer<typeof modelRouteSchema>;

/**
 * The whole catalogue as the catalog service hands it to every edge replica, which resolves models
 * from its own copy (no network hop per request). `version` changes whenever anything in it does.
 */
export const catalogSnapshotSchema = z.object({
  version: z.string(),
  models: z.array(modelInfoSchema),
  /** Canonical model id → every channel of that model. */
  channels: z.record(z.string(), z.array(channelSchema)),
  /** Alternative name → canonical model id; a trailing `*` matches by prefix. */
  aliases: z.record(z.string(), z.string()),
});
export type CatalogSnapshot = z.infer<typeof catalogSnapshotSchema>;
