/**
 * A whole Gemini GenerateContentResponse → our chat.completion. Each candidate is a choice: its text
 * parts are the content, its `thought: true` parts the `reasoning_content`, its `functionCall` parts
 * the `tool_calls` (arguments serialised to a JSON string). A prompt blocked before any candidate
 * (promptFeedback.blockReason) is one empty choice with finish_reason content_filter.
 */
import { randomBytes } from 'node:crypto';
import type { ChatCompletionRequest, ChatCompletionResponse, ChatToolCall } from '@unigate/contracts';
import type { GeminiCandidate, GeminiResponse, GeminiResponsePart } from '../../gemini-generate/gemini-generate-schemas';
import type { UnmeteredChatResponse } from '../../usage/chat-usage';
import { toChatUsage, toFinishReason } from './openai-chat__gemini-generate.usage';

type Choice = ChatCompletionResponse['choices'][number];

/** Usage only when Gemini reported it; the adapter measures the rest (usage/chat-usage.ts). */
export function toChatResponse(res: GeminiResponse, req: ChatCompletionRequest): UnmeteredChatResponse {
  const candidates = res.candidates ?? [];
  const choices: Choice[] = candidates.map((c, i) => toChoice(c, c.index ?? i));
  if (choices.length === 0 && res.promptFeedback?.blockReason) {
    choices.push({ index: 0, message: { role: 'assistant', content: null }, finish_reason: 'content_filter', logprobs: null });
  }
  return {
    id: chatCompletionId(res.responseId),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: req.model,
    choices,
    usage: res.usageMetadata ? toChatUsage(res.usageMetadata) : undefined,
  };
}

function toChoice(c: GeminiCandidate, index: number): Choice {
  const parts = c.content?.parts ?? [];
  const text = parts
    .filter((p) => !p.thought && typeof p.text === 'string')
    .map((p) => p.text)
    .join('');
  const reasoning = parts
    .filter((p) => p.thought && typeof p.text === 'string')
    .map((p) => p.text)
    .join('');
  const toolCalls = parts.filter((p) => p.functionCall).map(toToolCall);
  const message: Choice['message'] = { role: 'assistant', content: text === '' && toolCalls.length > 0 ? null : text };
  if (reasoning) message.reasoning_content = reasoning;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return { index, message, finish_reason: toFinishReason(c.finishReason, toolCalls.length > 0), logprobs: null };
}

export function toToolCall(p: GeminiResponsePart): ChatToolCall {
  const call = p.functionCall!;
  return { id: call.id || newToolCallId(), type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) } };
}

/** Gemini usually gives function calls no id; chat clients need one to answer the call. */
export function newToolCallId(): string {
  return `call_${randomBytes(12).toString('hex')}`;
}

export function chatCompletionId(responseId: string | null | undefined): string {
  return `chatcmpl-${responseId || randomBytes(12).toString('hex')}`;
}
