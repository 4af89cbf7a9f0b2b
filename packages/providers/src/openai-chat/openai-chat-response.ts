/**
 * Validated upstream replies → our response and chunk types. The model field is set back to the
 * name the client asked for (the upstream saw the channel's name); unknown fields pass through.
 */
import type { ChatCompletionChunk, ChatCompletionRequest, ChatUsage } from '@unigate/contracts';
import { omit } from '../omit';
import type { UnmeteredChatResponse } from '../usage/chat-usage';
import { mapOpenAiFinishReason } from './openai-chat-finish-reason';
import type { UpstreamChunk, UpstreamCompletion, UpstreamUsage } from './openai-chat-schemas';

/** Fields of an upstream answer or chunk that are set again, not copied. */
const REPLACED = new Set(['usage', 'system_fingerprint', 'choices'] as const);
const CHOICE_REPLACED = new Set(['delta', 'finish_reason'] as const);
const ANSWER_CHOICE_REPLACED = new Set(['message', 'finish_reason'] as const);

export function toChatUsage(u: UpstreamUsage): ChatUsage {
  const usage: ChatUsage = {
    prompt_tokens: u.prompt_tokens,
    completion_tokens: u.completion_tokens,
    total_tokens: u.total_tokens ?? u.prompt_tokens + u.completion_tokens,
  };
  const cached = u.prompt_tokens_details?.cached_tokens;
  const written = u.prompt_tokens_details?.cache_write_tokens;
  const audio = u.prompt_tokens_details?.audio_tokens;
  if (cached != null || written != null || audio != null) {
    usage.prompt_tokens_details = {
      ...(cached != null && { cached_tokens: cached }),
      // An upstream that charges for cache writes and reports them (OpenRouter's field): billed apart.
      ...(written != null && { cache_write_tokens: written }),
      ...(audio != null && { audio_tokens: audio }),
    };
  }
  const reasoning = u.completion_tokens_details?.reasoning_tokens;
  if (reasoning != null) usage.completion_tokens_details = { reasoning_tokens: reasoning };
  return usage;
}

/** Usage only when the upstream reported it; the adapter measures the rest (usage/chat-usage.ts). */
export function toChatResponse(up: UpstreamCompletion, req: ChatCompletionRequest): UnmeteredChatResponse {
  const { usage, system_fingerprint, choices } = up;
  const out: UnmeteredChatResponse = Object.assign(omit(up, REPLACED), {
    object: 'chat.completion' as const,
    model: req.model,
    choices: choices.map((choice) =>
      Object.assign(omit(choice, ANSWER_CHOICE_REPLACED), {
        message: assistantMessage(choice.message),
        finish_reason: mapOpenAiFinishReason(choice.finish_reason),
      }),
    ),
    usage: usage ? toChatUsage(usage) : undefined,
  });
  if (system_fingerprint) out.system_fingerprint = system_fingerprint;
  return out;
}

type UpstreamMessage = UpstreamCompletion['choices'][number]['message'];
type AnswerMessage = UnmeteredChatResponse['choices'][number]['message'];

/**
 * The upstream's message with its fields in their order, null `reasoning_content` and `tool_calls`
 * left out. Built without `delete`: deleting a property turns an object into a slow dictionary, and
 * `JSON.stringify` of the answer then took ~3× as long.
 */
function assistantMessage(message: UpstreamMessage): AnswerMessage {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(message)) {
    const value = (message as Record<string, unknown>)[key];
    if (value == null && (key === 'reasoning_content' || key === 'tool_calls')) continue;
    out[key] = value;
  }
  out.role = 'assistant';
  out.content = message.content ?? null;
  out.refusal = message.refusal ?? null;
  if (message.tool_calls) out.tool_calls = message.tool_calls.map((t) => ({ ...t, type: 'function' as const }));
  return out as AnswerMessage;
}

export function toChatChunk(up: UpstreamChunk, req: ChatCompletionRequest): ChatCompletionChunk {
  const { usage, system_fingerprint, choices } = up;
  const out: ChatCompletionChunk = Object.assign(omit(up, REPLACED), {
    object: 'chat.completion.chunk' as const,
    model: req.model,
    choices: choices.map((choice) => {
      const { delta, finish_reason } = choice;
      const d: ChatCompletionChunk['choices'][number]['delta'] = {};
      if (delta)
        for (const k of Object.keys(delta)) if (delta[k] !== null && delta[k] !== undefined) (d as Record<string, unknown>)[k] = delta[k];
      if (delta?.role) d.role = 'assistant';
      if (delta?.tool_calls) {
        d.tool_calls = delta.tool_calls.map((t) => {
          const f = t.function;
          return {
            index: t.index,
            ...(t.id && { id: t.id }),
            ...(t.type && { type: t.type }),
            ...(f && { function: { ...(f.name != null && { name: f.name }), ...(f.arguments != null && { arguments: f.arguments }) } }),
          };
        });
      }
      return Object.assign(omit(choice, CHOICE_REPLACED), { delta: d, finish_reason: mapOpenAiFinishReason(finish_reason) });
    }),
  });
  if (usage !== undefined) out.usage = usage ? toChatUsage(usage) : null;
  if (system_fingerprint) out.system_fingerprint = system_fingerprint;
  return out;
}
