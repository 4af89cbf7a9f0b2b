/**
 * The one place that picks an adapter for an upstream protocol. Vendor-specific code lives only in the
 * protocol folders; callers ask here by the channel's protocol.
 */
import { errors, type Protocol } from '@unigate/contracts';
import { sharedHttpClient, type HttpClient } from './http/http-client';
import { GeminiGenerateAdapter } from './gemini-generate/gemini-generate-adapter';
import { OpenAiChatAdapter } from './openai-chat/openai-chat-adapter';
import type { ChatProvider } from './types';

/**
 * The chat adapter for `protocol`. A protocol without a chat adapter (yet) is a channel that cannot
 * serve chat: a retryable upstream error, so the caller fails over to the next channel.
 */
export function chatProviderFor(protocol: Protocol, http: HttpClient = sharedHttpClient()): ChatProvider {
  switch (protocol) {
    case 'openai-chat':
      return new OpenAiChatAdapter(http);
    case 'gemini-generate':
      return new GeminiGenerateAdapter(http);
    default:
      throw errors.upstream(502, `no chat adapter speaks the upstream protocol '${protocol}'`, true);
  }
}
