/**
 * Whether a request asks Anthropic for a one-hour prompt cache (`cache_control: {ttl: "1h"}`), whose
 * writes cost more than the default five-minute ones: only then does a hold price the prompt at the
 * one-hour write price. Markers go where Anthropic takes them (the request, system and content
 * blocks, tools, blocks nested in a tool result, a search result or a document) and, on chat completions, on a message (LiteLLM's convention)
 * or on a text or image part of its content (OpenRouter's).
 */
import type { AnthropicMessagesRequest } from '../anthropic';
import type { ChatCompletionRequest } from '../chat';

type Marked = { cache_control?: { ttl?: unknown } | null } | null | undefined;

const marksOneHour = (value: unknown): boolean => (value as Marked)?.cache_control?.ttl === '1h';

/** The blocks nested in a block: a tool result's content, a search result's, a document's source.content. */
function nestedBlocks(block: unknown): unknown[][] {
  const b = block as { content?: unknown; source?: { content?: unknown } | null } | null;
  const out: unknown[][] = [];
  if (Array.isArray(b?.content)) out.push(b.content);
  if (Array.isArray(b?.source?.content)) out.push(b.source.content);
  return out;
}

/**
 * Whether `test` holds for a block or for one nested in it, where Anthropic takes a cache_control (a
 * tool result's blocks, a search result's, a document's source.content), at most three levels down:
 * linear in the blocks.
 */
export function someBlock(blocks: readonly unknown[], test: (block: unknown) => boolean, depth = 3): boolean {
  return blocks.some((b) => test(b) || (depth > 0 && nestedBlocks(b).some((inner) => someBlock(inner, test, depth - 1))));
}

export function messagesAskOneHourCache(req: AnthropicMessagesRequest): boolean {
  return (
    marksOneHour(req) ||
    (Array.isArray(req.system) && req.system.some(marksOneHour)) ||
    (req.tools?.some(marksOneHour) ?? false) ||
    req.messages.some((m) => Array.isArray(m.content) && someBlock(m.content, marksOneHour))
  );
}

export function chatAsksOneHourCache(req: ChatCompletionRequest): boolean {
  return req.messages.some((m) => marksOneHour(m) || (Array.isArray(m.content) && m.content.some(marksOneHour)));
}
