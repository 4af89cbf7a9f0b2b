/**
 * The UNIGATE_CONFIG file (YAML), validated once at start. Money is integer micro-USD as everywhere else;
 * secrets never appear in the file: a provider names the environment variable that holds its key.
 */
import { MODEL_ENDPOINTS, MODEL_KINDS } from '@unigate/contracts';
import { PROTOCOLS } from '@unigate/providers';
import { z } from 'zod';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;
const ALIAS = /^[A-Za-z0-9][A-Za-z0-9._:-]*\*?$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const money = z.number().int().nonnegative();
const moneyBy = z.record(z.string().min(1), money);

/** Every field optional: merged over the built-in price of the model (or zero for a new model). */
export const priceOverrideSchema = z
  .object({
    input_per_mtok: money.optional(),
    cached_input_per_mtok: money.optional(),
    cache_write_input_per_mtok: money.optional(),
    cache_write_1h_input_per_mtok: money.optional(),
    output_per_mtok: money.optional(),
    image_input_per_mtok: money.optional(),
    per_image: money.optional(),
    per_image_by_size: moneyBy.optional(),
    per_video_second: money.optional(),
    per_video_second_by_resolution: moneyBy.optional(),
    per_mchar: money.optional(),
  })
  .strict();
export type PriceOverride = z.infer<typeof priceOverrideSchema>;

export const providerSchema = z
  .object({
    name: z.string().regex(NAME, 'use letters, digits, ".", "_", ":" or "-"'),
    protocol: z.enum(PROTOCOLS),
    base_url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
    /** NAME of the environment variable holding the key; omit for keyless upstreams (simulator, local servers). */
    api_key_env: z.string().regex(ENV_NAME, 'must be an environment variable name such as SIGMA_API_KEY').optional(),
  })
  .strict();
export type ProviderConfig = z.infer<typeof providerSchema>;

export const channelSchema = z
  .object({
    provider: z.string().min(1),
    /** The model name the upstream knows; defaults to our model id. */
    upstream_model: z.string().min(1).optional(),
    /** Higher is tried first. */
    priority: z.number().int().default(0),
    /** Share of traffic among channels of equal priority; 0 = standby. */
    weight: z.number().nonnegative().default(1),
  })
  .strict();
export type ChannelConfig = z.infer<typeof channelSchema>;

export const modelConfigSchema = z
  .object({
    family: z.string().min(1).optional(),
    kind: z.enum(MODEL_KINDS).optional(),
    owned_by: z.string().min(1).optional(),
    created: z.number().int().nonnegative().optional(),
    description: z.string().optional(),
    context_window: z.number().int().positive().optional(),
    max_output_tokens: z.number().int().positive().optional(),
    /** Chat models: the most one input image costs, in tokens (ModelInfo.max_image_tokens). */
    max_image_tokens: z.number().int().positive().optional(),
    endpoints: z.array(z.enum(MODEL_ENDPOINTS)).min(1).optional(),
    prices: priceOverrideSchema.optional(),
    /** Replaces the model's default (simulator) channel. */
    channels: z.array(channelSchema).min(1).optional(),
  })
  .strict();
export type ModelConfig = z.infer<typeof modelConfigSchema>;

export const catalogConfigSchema = z
  .object({
    providers: z.array(providerSchema).default([]),
    models: z.record(z.string().regex(NAME, 'invalid model id'), modelConfigSchema).default({}),
    /** Model id → price override; the same as models.<id>.prices, kept separate for price-only files. */
    prices: z.record(z.string().min(1), priceOverrideSchema).default({}),
    /** Alternative name → model id; a trailing `*` matches by prefix (`claude-sonnet-*`). */
    aliases: z
      .record(z.string().regex(ALIAS, 'use letters, digits, ".", "_", ":" or "-", optionally ending in "*"'), z.string().min(1))
      .default({}),
  })
  .strict();
export type CatalogConfig = z.infer<typeof catalogConfigSchema>;
