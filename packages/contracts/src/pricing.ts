/** Pure money arithmetic. Money is integer micro-USD; token prices are per million tokens. */
import type { Prices } from './catalog';
import type { ChatUsage } from './chat';

export interface TokenUnits {
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
}

export function unitsFromChatUsage(u: ChatUsage): TokenUnits {
  const cached = u.prompt_tokens_details?.cached_tokens ?? 0;
  return { input_tokens: u.prompt_tokens, cached_input_tokens: Math.min(cached, u.prompt_tokens), output_tokens: u.completion_tokens };
}

/** Cost of measured token usage, rounded up to the next micro-dollar (never undercharge by rounding). */
export function tokenCostMicros(prices: Prices, units: TokenUnits): number {
  const uncached = units.input_tokens - units.cached_input_tokens;
  const cachedPrice = prices.cached_input_per_mtok ?? prices.input_per_mtok;
  const numerator =
    uncached * prices.input_per_mtok + units.cached_input_tokens * cachedPrice + units.output_tokens * prices.output_per_mtok;
  return Math.ceil(numerator / 1_000_000);
}

export function usdToMicros(usd: number): number {
  return Math.round(usd * 1_000_000);
}

export function microsToUsd(micros: number): number {
  return micros / 1_000_000;
}
