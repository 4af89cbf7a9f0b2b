/**
 * Our chat request → the request an OpenAI-compatible upstream gets. The body is already in OpenAI's
 * format, so this only swaps the model for the channel's upstream name and fixes the streaming mode;
 * unknown fields pass through untouched.
 *
 * `channel.base_url` includes the version prefix: `https://api.openai.com/v1`, or
 * `http://127.0.0.1:8090/v1` for the simulator. The request goes to `${base_url}/chat/completions`.
 */
import type { Channel, ChatCompletionRequest, ChatContentBlock, ChatMessage } from '@unigate/contracts';
import { omit } from '../omit';

const CACHE_CONTROL = new Set(['cache_control'] as const);

export function chatCompletionsUrl(channel: Channel): string {
  return `${channel.base_url.replace(/\/+$/, '')}/chat/completions`;
}

export function openAiChatHeaders(channel: Channel, stream: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: stream ? 'text/event-stream' : 'application/json',
  };
  if (channel.api_key) headers.authorization = `Bearer ${channel.api_key}`;
  return headers;
}

/**
 * Streams always ask for the usage chunk so usage is measured; whether the client sees it is the
 * caller's decision (it asked with `stream_options.include_usage` or not).
 */
export function toOpenAiChatBody(channel: Channel, body: ChatCompletionRequest, stream: boolean): Record<string, unknown> {
  const { stream: _stream, stream_options: streamOptions, ...rest } = body;
  const out: Record<string, unknown> = { ...rest, model: channel.upstream_model, messages: withoutCacheControl(body.messages) };
  if (stream) {
    out.stream = true;
    out.stream_options = { ...(streamOptions ?? {}), include_usage: true };
  }
  return out;
}

/**
 * `cache_control` on a message or a content part is an Anthropic breakpoint (chat.ts): OpenAI documents
 * no such field and an OpenAI-compatible upstream may refuse one it does not know, so it is left out.
 * Messages without a mark are passed as they are (no copy).
 */
function withoutCacheControl(messages: ChatCompletionRequest['messages']): ChatCompletionRequest['messages'] {
  const markedPart = (m: ChatMessage) => Array.isArray(m.content) && m.content.some((part) => 'cache_control' in part);
  const marked = (m: ChatMessage) => 'cache_control' in m || markedPart(m);
  if (!messages.some(marked)) return messages;
  return messages.map((m) => {
    if (!marked(m)) return m;
    const message = 'cache_control' in m ? (omit(m, CACHE_CONTROL) as ChatMessage) : m;
    if (!markedPart(message)) return message;
    return {
      ...message,
      content: (message.content as ChatContentBlock[]).map((part) => ('cache_control' in part ? omit(part, CACHE_CONTROL) : part)),
    };
  });
}
