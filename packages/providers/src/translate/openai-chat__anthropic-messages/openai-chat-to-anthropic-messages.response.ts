/**
 * A chat completion → an Anthropic message (a messages client on a chat-completions model):
 * `reasoning_content` → a thinking block (with an empty signature: there is none to give),
 * `content` → a text block, `tool_calls` → tool_use blocks with the arguments parsed back into an
 * object (an unparsable string is kept under `_raw` so nothing is lost), finish_reason →
 * stop_reason, cached prompt tokens → cache_read_input_tokens.
 */
import type { AnthropicMessage, AnthropicResponseBlock, ChatCompletionResponse } from '@unigate/contracts';
import { anthropicMessageId } from './openai-chat__anthropic-messages.ids';
import { finishReasonToAnthropicStop } from './openai-chat__anthropic-messages.stop-reason';
import { chatToAnthropicUsage } from './openai-chat__anthropic-messages.usage';

export interface ChatToAnthropicResponseOptions {
  /** The model name the client asked for. */
  model: string;
  /** The message id; the completion's, as anthropicMessageId gives it, when absent. */
  id?: string;
}

export function chatToAnthropicResponse(res: ChatCompletionResponse, opts: ChatToAnthropicResponseOptions): AnthropicMessage {
  const choice = res.choices[0];
  const content: AnthropicResponseBlock[] = [];
  const m = choice?.message;
  if (m?.reasoning_content) content.push({ type: 'thinking', thinking: m.reasoning_content, signature: '' });
  if (m?.content) content.push({ type: 'text', text: m.content });
  for (const call of m?.tool_calls ?? []) {
    content.push({ type: 'tool_use', id: call.id, name: call.function.name, input: parseToolInput(call.function.arguments) });
  }
  return {
    id: opts.id ?? anthropicMessageId(res.id),
    type: 'message',
    role: 'assistant',
    model: opts.model,
    content,
    stop_reason: finishReasonToAnthropicStop(choice?.finish_reason),
    stop_sequence: null,
    usage: chatToAnthropicUsage(res.usage),
  };
}

/** Tool arguments as the object Anthropic clients expect. */
export function parseToolInput(args: string): Record<string, unknown> {
  if (args.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(args);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through: keep what the model produced
  }
  return { _raw: args };
}
