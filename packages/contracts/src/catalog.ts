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

export interface ModelInfo {
  id: string;
  family: string;
  kind: ModelKind;
  owned_by: string;
  created: number;
  context_window?: number;
  max_output_tokens?: number;
  prices: Prices;
}

export interface ModelRoute {
  model: ModelInfo;
  /** Ordered: try the first, fail over down the list. */
  channels: Channel[];
}
