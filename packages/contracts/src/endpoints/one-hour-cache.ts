/**
 * Whether a request asks Anthropic for a one-hour prompt cache (`cache_control: {ttl: "1h"}`), whose
 * writes cost more than the default five-minute ones: only then does a hold price the prompt at the
 * one-hour write price. Markers go where Anthropic takes them (the request, system and content
 * blocks, tools, a tool result's blocks) and, on chat completions, on a message (LiteLLM's convention)
 * or on a text or image part of its content (OpenRouter's).
 */
import type { AnthropicMessagesRequest } from '../anthropic';
import type { ChatCompletionRequest } from '../chat';

type Marked = { cache_control?: { ttl?: unknown } | null; content?: unknown } | null | undefined;

const marksOneHour = (value: unknown): boolean => (value as Marked)?.cache_control?.ttl === '1h';

/** A block, or any block of a tool result's content. */
const blockAsks = (block: unknown): boolean =>
  marksOneHour(block) || (Array.isArray((block as Marked)?.content) && (block as { content: unknown[] }).content.some(marksOneHour));

export function messagesAskOneHourCache(req: AnthropicMessagesRequest): boolean {
  return (
    marksOneHour(req) ||
    (Array.isArray(req.system) && req.system.some(marksOneHour)) ||
    (req.tools?.some(marksOneHour) ?? false) ||
    req.messages.some((m) => Array.isArray(m.content) && m.content.some(blockAsks))
  );
}

export function chatAsksOneHourCache(req: ChatCompletionRequest): boolean {
  return req.messages.some((m) => marksOneHour(m) || (Array.isArray(m.content) && m.content.some(marksOneHour)));
}
