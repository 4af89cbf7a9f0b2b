/**
 * Gemini's finish reasons and usage metadata in chat-completions terms.
 *
 * Usage: Gemini counts thinking apart from the answer (`thoughtsTokenCount` is not inside
 * `candidatesTokenCount`), while chat-completions counts reasoning inside `completion_tokens` — so
 * completion = candidates + thoughts, and thoughts are also reported as `reasoning_tokens`. Cached
 * prompt tokens (`cachedContentTokenCount`, a part of `promptTokenCount`) become `cached_tokens`;
 * the prompt of tool use (`toolUsePromptTokenCount`) is prompt.
 */
import type { ChatUsage, FinishReason } from '@unigate/contracts';
import type { GeminiUsage } from '../../gemini-generate/gemini-generate-schemas';

const FILTERED = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY']);

/**
 * `STOP` ends both a text answer and a function call in Gemini; chat-completions says `tool_calls`
 * for the latter. MAX_TOKENS → length; the filter reasons → content_filter; anything else → stop.
 */
export function toFinishReason(reason: string | null | undefined, calledTools: boolean): FinishReason | null {
  if (reason === null || reason === undefined || reason === 'FINISH_REASON_UNSPECIFIED') return null;
  if (reason === 'MAX_TOKENS') return 'length';
  if (FILTERED.has(reason)) return 'content_filter';
  return calledTools ? 'tool_calls' : 'stop';
}

export function toChatUsage(u: GeminiUsage): ChatUsage {
  const prompt = (u.promptTokenCount ?? 0) + (u.toolUsePromptTokenCount ?? 0);
  const reasoning = u.thoughtsTokenCount ?? 0;
  const completion = (u.candidatesTokenCount ?? 0) + reasoning;
  const usage: ChatUsage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
  if (u.cachedContentTokenCount != null) usage.prompt_tokens_details = { cached_tokens: Math.min(u.cachedContentTokenCount, prompt) };
  if (u.thoughtsTokenCount != null) usage.completion_tokens_details = { reasoning_tokens: reasoning };
  return usage;
}
