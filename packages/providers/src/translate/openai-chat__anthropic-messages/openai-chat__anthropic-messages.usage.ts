/**
 * Token usage in both directions. Anthropic splits the prompt into uncached `input_tokens`,
 * `cache_read_input_tokens` and `cache_creation_input_tokens`; chat-completions reports the whole
 * prompt in `prompt_tokens` with the cache hits in `prompt_tokens_details.cached_tokens`. So
 * prompt_tokens = input + cache_read + cache_creation, and cached_tokens = cache_read.
 */
import type { AnthropicUsage, ChatUsage } from '@unigate/contracts';

/**
 * Anthropic counts thinking inside `output_tokens`; `reasoningTokens` is its split when known (the
 * upstream's `output_tokens_details.thinking_tokens`, else the thinking text counted by the caller).
 */
export function anthropicToChatUsage(u: AnthropicUsage, reasoningTokens?: number): ChatUsage {
  const cacheRead = u.cache_read_input_tokens ?? 0;
  const prompt = u.input_tokens + cacheRead + (u.cache_creation_input_tokens ?? 0);
  const usage: ChatUsage = {
    prompt_tokens: prompt,
    completion_tokens: u.output_tokens,
    total_tokens: prompt + u.output_tokens,
    prompt_tokens_details: { cached_tokens: cacheRead },
  };
  const reasoning = u.output_tokens_details?.thinking_tokens ?? reasoningTokens;
  if (reasoning != null) usage.completion_tokens_details = { reasoning_tokens: Math.min(reasoning, u.output_tokens) };
  return usage;
}

/** Chat-completions upstreams report no cache writes, so cache_creation_input_tokens is 0. */
export function chatToAnthropicUsage(u: ChatUsage): AnthropicUsage {
  const cached = Math.min(u.prompt_tokens_details?.cached_tokens ?? 0, u.prompt_tokens);
  return {
    input_tokens: u.prompt_tokens - cached,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
    output_tokens: u.completion_tokens,
  };
}
