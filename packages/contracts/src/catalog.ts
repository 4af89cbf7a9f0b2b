/** What the catalog knows about a model and how to reach it. */
import { z } from 'zod';

export const MODEL_KINDS = ['chat', 'image', 'image-edit', 'video', 'embedding', 'speech'] as const;
export type ModelKind = (typeof MODEL_KINDS)[number];

/** Upstream wire protocols an adapter exists (or will exist) for; see packages/providers. */
export const PROTOCOLS = [
  'openai-chat',
  'anthropic-messages',
  'gemini-generate',
  'gemini-interactions',
  'dashscope',
  'ark',
  'openai-images',
  'openai-embeddings',
  'voyage',
] as const;
export type Protocol = (typeof PROTOCOLS)[number];

/** Prices in integer micro-USD. Token prices are per million tokens. */
export const priceSchema = z.object({
  input_per_mtok: z.number().int().nonnegative().default(0),
  cached_input_per_mtok: z.number().int().nonnegative().optional(),
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

export interface Channel {
  id: string;
  protocol: Protocol;
  base_url: string;
  /** Resolved secret; never logged. Empty when the upstream needs none (the simulator). */
  api_key: string;
  upstream_model: string;
  priority: number;
  weight: number;
}

/** The public operations (SPEC.md §4) a model may be called on; a model's kind alone cannot say this. */
export const MODEL_ENDPOINTS = [
  '/v1/chat/completions',
  '/v1/messages',
  '/v1/images/generations',
  '/v1/images/edits',
  '/v1/videos/generations',
  '/v1/embeddings',
  '/v1/audio/speech',
] as const;
export type ModelEndpoint = (typeof MODEL_ENDPOINTS)[number];

/** Chat features the edge may check or advertise. */
export interface ChatLimits {
  vision?: boolean;
  tools?: boolean;
  /** Always-on or optional thinking; reasoning tokens are billed as output. */
  reasoning?: boolean;
  /** Allowed `reasoning_effort` values, when the field is accepted at all. */
  reasoning_efforts?: string[];
  /** Accepts video/audio URLs in user messages (SPEC.md §4 note on gamma chat). */
  media_input?: boolean;
}

export interface ImageLimits {
  /** Allowed `size` / `parameters.size` values in the family's own notation (`1024*1024`, `1024x1024`). */
  sizes?: string[];
  default_size?: string;
  /** Gamma interaction-style `response_format.image_size` values. */
  image_sizes?: string[];
  aspect_ratios?: string[];
  /** Images per call. */
  max_n?: number;
  /** Reference/input images: editing models need at least min (0 = text-to-image). */
  min_reference_images?: number;
  max_reference_images?: number;
  supports_mask?: boolean;
  output_formats?: string[];
  qualities?: string[];
  /** `generation_config.thinking_level` values, when supported. */
  thinking_levels?: string[];
  /** Freeform `WxH` on /v1/images/generations (SPEC.md §8). */
  freeform_size?: { max_side: number; multiple_of: number; max_ratio: number };
}

export interface VideoLimits {
  /** t2v, i2v or r2v: which `input` fields apply (SPEC.md §2.6). */
  input_mode: 't2v' | 'i2v' | 'r2v';
  /** Upstream body format: `2.6` (size/img_url/reference_urls) or `2.7` (resolution/media). */
  api_format: '2.6' | '2.7';
  resolutions: string[];
  default_resolution: string;
  aspect_ratios: string[];
  default_duration_seconds: number;
  max_duration_seconds: number;
}

export interface EmbeddingLimits {
  dimensions: number[];
  default_dimensions: number;
  max_input_tokens?: number;
  /** Inputs per request. */
  max_batch?: number;
}

export interface SpeechLimits {
  voices: string[];
  default_voice: string;
  response_formats: string[];
  default_response_format: string;
  supports_instructions: boolean;
}

export interface ModelInfo {
  id: string;
  family: string;
  kind: ModelKind;
  owned_by: string;
  created: number;
  context_window?: number;
  max_output_tokens?: number;
  prices: Prices;
  /** Optional catalogue detail (filled for every built-in model; YAML-added models may omit it). */
  description?: string;
  endpoints?: ModelEndpoint[];
  chat?: ChatLimits;
  image?: ImageLimits;
  video?: VideoLimits;
  embedding?: EmbeddingLimits;
  speech?: SpeechLimits;
}

export interface ModelRoute {
  model: ModelInfo;
  /** Ordered: try the first, fail over down the list. */
  channels: Channel[];
}
