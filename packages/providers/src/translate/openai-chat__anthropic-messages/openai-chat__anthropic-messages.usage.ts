/**
 * Token usage in both directions. Anthropic splits the prompt into uncached `input_tokens`,
 * `cache_read_input_tokens` and `cache_creation_input_tokens`; chat-completions reports the whole
 * prompt in `prompt_tokens` with the cache hits in `prompt_tokens_details.cached_tokens`. So
 * prompt_tokens = input + cache_read + cache_creation, and cached_tokens = cache_read. Cache writes,
 * which Anthropic charges above input, go in `prompt_tokens_details.cache_write_tokens` (OpenRouter's
 * name for them): billing prices them apart, and a chat client sees what it paid for.
 */
import { splitPrompt, type AnthropicUsage, type ChatUsage } from '@unigate/contracts';

/**
 * Anthropic counts thinking inside `output_tokens`; `reasoningTokens` is its split when known (the
 * upstream's `output_tokens_details.thinking_tokens`, else the thinking text counted by the caller).
 */
export function anthropicToChatUsage(u: AnthropicUsage, reasoningTokens?: number): ChatUsage {
  const cacheRead = u.cache_read_input_tokens ?? 0;
  const cacheWrite = u.cache_creation_input_tokens ?? 0;
  const prompt = u.input_tokens + cacheRead + cacheWrite;
  const usage: ChatUsage = {
    prompt_tokens: prompt,
    completion_tokens: u.output_tokens,
    total_tokens: prompt + u.output_tokens,
    prompt_tokens_details: { cached_tokens: cacheRead, ...(cacheWrite > 0 && { cache_write_tokens: cacheWrite }) },
  };
  const reasoning = u.output_tokens_details?.thinking_tokens ?? reasoningTokens;
  if (reasoning != null) usage.completion_tokens_details = { reasoning_tokens: Math.min(reasoning, u.output_tokens) };
  return usage;
}

/** Cache writes only where a chat-completions upstream reports them (`cache_write_tokens`); else 0. */
export function chatToAnthropicUsage(u: ChatUsage): AnthropicUsage {
  const { plain, cached, written } = splitPrompt(
    u.prompt_tokens,
    u.prompt_tokens_details?.cached_tokens,
    u.prompt_tokens_details?.cache_write_tokens,
  );
  return {
    input_tokens: plain,
    cache_creation_input_tokens: written,
    cache_read_input_tokens: cached,
    output_tokens: u.completion_tokens,
  };
}
