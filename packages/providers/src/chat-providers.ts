/**
 * The chat adapter of each upstream protocol that can carry chat: the building block of every
 * chat-family endpoint (chat completions natively; messages and responses by translation).
 */
import { AnthropicMessagesChatProvider } from './anthropic-messages/anthropic-messages-chat-provider';
import { AnthropicMessagesClient } from './anthropic-messages/anthropic-messages-client';
import { GeminiGenerateAdapter } from './gemini-generate/gemini-generate-adapter';
import { sharedHttpClient, type HttpClient } from './http/http-client';
import { OpenAiChatAdapter } from './openai-chat/openai-chat-adapter';
import { OpenAiResponsesChatProvider } from './openai-responses/openai-responses-chat-provider';
import { OpenAiResponsesClient } from './openai-responses/openai-responses-client';
import type { ChatProvider } from './types';

const CHAT_PROVIDERS: Readonly<Record<string, (http: HttpClient) => ChatProvider>> = {
  'openai-chat': (http) => new OpenAiChatAdapter(http),
  'anthropic-messages': (http) => new AnthropicMessagesChatProvider(new AnthropicMessagesClient(http)),
  'gemini-generate': (http) => new GeminiGenerateAdapter(http),
  'openai-responses': (http) => new OpenAiResponsesChatProvider(new OpenAiResponsesClient(http)),
};

/** The chat adapter for `protocol`, or undefined when the protocol carries no chat. */
export function chatProviderFor(protocol: string, http: HttpClient = sharedHttpClient()): ChatProvider | undefined {
  return CHAT_PROVIDERS[protocol]?.(http);
}
