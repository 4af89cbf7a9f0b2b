/**
 * The one place that picks an adapter for an upstream protocol. Vendor-specific code lives only in the
 * protocol folders; callers ask here by the channel's protocol.
 */
import { errors, type Protocol } from '@unigate/contracts';
import { sharedHttpClient, type HttpClient } from './http/http-client';
import { AnthropicMessagesChatProvider } from './anthropic-messages/anthropic-messages-chat-provider';
import { AnthropicMessagesClient } from './anthropic-messages/anthropic-messages-client';
import { GeminiGenerateAdapter } from './gemini-generate/gemini-generate-adapter';
import { OpenAiChatAdapter } from './openai-chat/openai-chat-adapter';
import type { MessagesProvider } from './messages/messages-provider';
import { NativeMessagesProvider } from './messages/native-messages-provider';
import { TranslatedMessagesProvider } from './messages/translated-messages-provider';
import type { ChatProvider } from './types';

/**
 * The chat adapter for `protocol`. A protocol without a chat adapter (yet) is a channel that cannot
 * serve chat: a retryable upstream error, so the caller fails over to the next channel.
 */
export function chatProviderFor(protocol: Protocol, http: HttpClient = sharedHttpClient()): ChatProvider {
  switch (protocol) {
    case 'openai-chat':
      return new OpenAiChatAdapter(http);
    case 'anthropic-messages':
      return new AnthropicMessagesChatProvider(new AnthropicMessagesClient(http));
    case 'gemini-generate':
      return new GeminiGenerateAdapter(http);
    default:
      throw errors.upstream(502, `no chat adapter speaks the upstream protocol '${protocol}'`, true);
  }
}

/** What serves the messages format on `protocol`: the upstream itself when it speaks it, else a translation. */
export function messagesProviderFor(protocol: Protocol, http: HttpClient = sharedHttpClient()): MessagesProvider {
  if (protocol === 'anthropic-messages') return new NativeMessagesProvider(new AnthropicMessagesClient(http));
  return new TranslatedMessagesProvider(chatProviderFor(protocol, http));
}
