/**
 * What a call is billed for, and what that costs. Money is integer micro-USD; token prices are per
 * million tokens, character prices per million characters. Every endpoint reports its measured
 * usage in these units (the spec's `units` say which it uses), and the same function prices the
 * worst case for the hold and the measured usage for the ledger.
 */
import { z } from 'zod';
import type { Prices } from './catalog';
import type { ChatUsage } from './chat';

const count = z.number().int().nonnegative();

export const usageSchema = z.object({
  /** Prompt tokens, cached and cache-written ones included (text and, for chat, images). */
  input_tokens: count.optional(),
  /** The part of input_tokens served from the upstream's prompt cache (cheaper). */
  cached_input_tokens: count.optional(),
  /** The part of input_tokens written to the upstream's prompt cache (dearer where the vendor charges for it). */
  cache_write_input_tokens: count.optional(),
  /** The part of cache_write_input_tokens written to a one-hour cache (Anthropic's `ttl: "1h"`, dearer still). */
  cache_write_1h_input_tokens: count.optional(),
  /** Generated tokens, reasoning included. */
  output_tokens: count.optional(),
  /** Input image tokens where the model prices them apart from text (image edits). */
  image_input_tokens: count.optional(),
  /** Images generated. */
  images: count.optional(),
  /** The price key of those images (`1K`, `1024x1024`, ...), for per-size prices. */
  image_size: z.string().max(32).optional(),
  /** Seconds of video generated. */
  video_seconds: count.optional(),
  /** The price key of that video (`480p`, `720p`, `1080p`). */
  video_resolution: z.string().max(32).optional(),
  /** Characters synthesised to speech. */
  characters: count.optional(),
});
export type Usage = z.infer<typeof usageSchema>;
export type UsageUnit = keyof Usage;

/** Nothing measurable was produced: nothing to charge (the hold goes back). */
export function isEmptyUsage(u: Usage): boolean {
  return !(
    (u.input_tokens ?? 0) ||
    (u.output_tokens ?? 0) ||
    (u.image_input_tokens ?? 0) ||
    (u.images ?? 0) ||
    (u.video_seconds ?? 0) ||
    (u.characters ?? 0)
  );
}

/**
 * A prompt's tokens by how they are priced: cache reads and cache writes, each bounded by the prompt
 * and never the same token twice (an upstream's counts are taken as given, not trusted to add up);
 * `written1h` is the part of the writes made for an hour.
 */
export function splitPrompt(
  input: number,
  cached = 0,
  written = 0,
  written1h = 0,
): { plain: number; cached: number; written: number; written1h: number } {
  const c = Math.min(cached, input);
  const w = Math.min(written, input - c);
  return { plain: input - c - w, cached: c, written: w, written1h: Math.min(written1h, w) };
}

/** A prompt's units as usage records them: cache writes (and their one-hour part) only when there were some. */
export function promptUnits(
  input: number,
  cached?: number | null,
  written?: number | null,
  written1h?: number | null,
): Pick<Usage, 'input_tokens' | 'cached_input_tokens' | 'cache_write_input_tokens' | 'cache_write_1h_input_tokens'> {
  const split = splitPrompt(input, cached ?? 0, written ?? 0, written1h ?? 0);
  return {
    input_tokens: input,
    cached_input_tokens: split.cached,
    ...(split.written > 0 && { cache_write_input_tokens: split.written }),
    ...(split.written1h > 0 && { cache_write_1h_input_tokens: split.written1h }),
  };
}

export function usageFromChat(u: ChatUsage): Usage {
  const details = u.prompt_tokens_details;
  return { ...promptUnits(u.prompt_tokens, details?.cached_tokens, details?.cache_write_tokens), output_tokens: u.completion_tokens };
}

/**
 * Cost of `usage`, rounded up to the next micro-dollar once per call (never undercharge by rounding):
 * the token terms are summed before rounding, never rounded per token or per kind.
 */
export function costMicros(prices: Prices, u: Usage): number {
  const { plain, cached, written, written1h } = splitPrompt(
    u.input_tokens ?? 0,
    u.cached_input_tokens,
    u.cache_write_input_tokens,
    u.cache_write_1h_input_tokens,
  );
  const cachedPrice = prices.cached_input_per_mtok ?? prices.input_per_mtok;
  const { write5m, write1h } = cacheWritePrices(prices);
  const imageInputPrice = prices.image_input_per_mtok ?? prices.input_per_mtok;
  const tokenNumerator =
    plain * prices.input_per_mtok +
    cached * cachedPrice +
    (written - written1h) * write5m +
    written1h * write1h +
    (u.output_tokens ?? 0) * prices.output_per_mtok +
    (u.image_input_tokens ?? 0) * imageInputPrice;
  const perImage = (u.image_size !== undefined ? prices.per_image_by_size?.[u.image_size] : undefined) ?? prices.per_image ?? 0;
  const perSecond =
    (u.video_resolution !== undefined ? prices.per_video_second_by_resolution?.[u.video_resolution] : undefined) ??
    prices.per_video_second ??
    0;
  return (
    Math.ceil(tokenNumerator / 1_000_000) +
    (u.images ?? 0) * perImage +
    (u.video_seconds ?? 0) * perSecond +
    Math.ceil(((u.characters ?? 0) * (prices.per_mchar ?? 0)) / 1_000_000)
  );
}

/** Whether a one-hour cache write costs more than a five-minute one: only then does a plan look for a ttl of "1h". */
export function oneHourWritesDearer(prices: Prices): boolean {
  const { write5m, write1h } = cacheWritePrices(prices);
  return write1h > write5m;
}

/** A five-minute cache write defaults to plain input, a one-hour one to the five-minute write price. */
function cacheWritePrices(prices: Prices): { write5m: number; write1h: number } {
  const write5m = prices.cache_write_input_per_mtok ?? prices.input_per_mtok;
  return { write5m, write1h: prices.cache_write_1h_input_per_mtok ?? write5m };
}

/**
 * The hold for a call whose worst case is `worst`: its cost, with every prompt token not known to be a
 * cache read priced as a cache write when writes cost more than plain input. The estimate cannot know
 * what the upstream will write to its cache (a client's cache_control, or the vendor's own caching), and
 * a hold must never be less than the charge. One-hour writes only come when asked for (a ttl of "1h"),
 * which the plan marks with `cache_write_1h_input_tokens`: only then is the one-hour price the dearest.
 */
export function holdMicros(prices: Prices, worst: Usage): number {
  const written = (worst.input_tokens ?? 0) - (worst.cached_input_tokens ?? 0);
  const { write5m, write1h } = cacheWritePrices(prices);
  const oneHour = (worst.cache_write_1h_input_tokens ?? 0) > 0 && write1h > write5m;
  if ((oneHour ? write1h : write5m) <= prices.input_per_mtok || written <= 0) return costMicros(prices, worst); // a one-hour mark without writes is priced at nothing (splitPrompt)
  return costMicros(prices, { ...worst, cache_write_input_tokens: written, cache_write_1h_input_tokens: oneHour ? written : undefined });
}

export function usdToMicros(usd: number): number {
  return Math.round(usd * 1_000_000);
}

export function microsToUsd(micros: number): number {
  return micros / 1_000_000;
}
