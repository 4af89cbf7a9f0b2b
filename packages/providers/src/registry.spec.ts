import { AnthropicMessagesChatProvider } from './anthropic-messages/anthropic-messages-chat-provider';
import { chatProviderFor } from './chat-providers';
import { GeminiGenerateAdapter } from './gemini-generate/gemini-generate-adapter';
import { HttpClient } from './http/http-client';
import { OpenAiChatAdapter } from './openai-chat/openai-chat-adapter';
import { OpenAiResponsesChatProvider } from './openai-responses/openai-responses-chat-provider';
import { defaultProtocol, PROTOCOLS, protocolsFor, serviceEndpoints, simulatorBaseUrl } from './registry';

/** Protocols with a chat adapter. */
const CHAT_PROTOCOLS = new Set<string>(['openai-chat', 'gemini-generate', 'anthropic-messages', 'openai-responses']);

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

  it('picks the Responses provider for openai-responses', () => {
    expect(chatProviderFor('openai-responses', http)).toBeInstanceOf(OpenAiResponsesChatProvider);
  });

  it('picks the Anthropic messages provider for anthropic-messages', () => {
    expect(chatProviderFor('anthropic-messages', http)).toBeInstanceOf(AnthropicMessagesChatProvider);
  });

  it('has none for a protocol that carries no chat', () => {
    for (const protocol of PROTOCOLS.filter((p) => !CHAT_PROTOCOLS.has(p))) expect(chatProviderFor(protocol, http)).toBeUndefined();
  });
});

describe('protocol facts', () => {
  it('says which protocols carry which kind', () => {
    expect(protocolsFor('chat').sort()).toEqual([...CHAT_PROTOCOLS].sort());
    expect(protocolsFor('speech')).toEqual(['dashscope']);
    expect(protocolsFor('video').sort()).toEqual(['ark', 'dashscope']);
  });

  it('routes each family to its vendor protocol by default', () => {
    expect(defaultProtocol({ family: 'sigma', kind: 'chat' })).toBe('anthropic-messages');
    expect(defaultProtocol({ family: 'gamma', kind: 'chat' })).toBe('gemini-generate');
    expect(defaultProtocol({ family: 'omega', kind: 'chat' })).toBe('openai-chat');
    expect(defaultProtocol({ family: 'alpha', kind: 'image' })).toBe('dashscope');
    expect(defaultProtocol({ family: 'beta', kind: 'video' })).toBe('dashscope');
    expect(defaultProtocol({ family: 'zeta', kind: 'embedding' })).toBe('voyage');
    expect(defaultProtocol({ family: 'delta', kind: 'image-edit' })).toBe('openai-images');
  });

  it('writes simulator bases the way each vendor documents its base URL', () => {
    expect(simulatorBaseUrl('openai-chat', 'http://sim:1/')).toBe('http://sim:1/v1');
    expect(simulatorBaseUrl('anthropic-messages', 'http://sim:1')).toBe('http://sim:1');
  });

  it('lists the endpoints each service owns', () => {
    expect(serviceEndpoints('chat').map((e) => e.spec.name)).toEqual([
      'chat.completions',
      'messages',
      'messages.count_tokens',
      'responses',
    ]);
  });
});
