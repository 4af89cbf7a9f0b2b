import { GatewayError, PROTOCOLS } from '@unigate/contracts';
import { AnthropicMessagesChatProvider } from './anthropic-messages/anthropic-messages-chat-provider';
import { HttpClient } from './http/http-client';
import { GeminiGenerateAdapter } from './gemini-generate/gemini-generate-adapter';
import { OpenAiChatAdapter } from './openai-chat/openai-chat-adapter';
import { chatProviderFor } from './registry';

/** Protocols with a chat adapter; every other one must fail over. */
const CHAT_PROTOCOLS = new Set<string>(['openai-chat', 'gemini-generate', 'anthropic-messages']);

describe('chatProviderFor', () => {
  const http = new HttpClient();
  afterAll(() => http.close());

  it('picks the OpenAI chat adapter for openai-chat', () => {
    expect(chatProviderFor('openai-chat', http)).toBeInstanceOf(OpenAiChatAdapter);
    expect(chatProviderFor('openai-chat')).toBeInstanceOf(OpenAiChatAdapter);
  });

  it('picks the Gemini adapter for gemini-generate', () => {
    expect(chatProviderFor('gemini-generate', http)).toBeInstanceOf(GeminiGenerateAdapter);
  });

  it('picks the Anthropic messages provider for anthropic-messages', () => {
    expect(chatProviderFor('anthropic-messages', http)).toBeInstanceOf(AnthropicMessagesChatProvider);
  });

  it('fails over (retryable upstream error) for a protocol with no chat adapter', () => {
    for (const protocol of PROTOCOLS.filter((p) => !CHAT_PROTOCOLS.has(p))) {
      let err: unknown;
      try {
        chatProviderFor(protocol, http);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(GatewayError);
      expect(err).toMatchObject({ status: 502, code: 'upstream_error', retryable: true });
      expect((err as Error).message).toContain(protocol);
    }
  });
});
