import type { AnthropicMessagesRequest, Channel } from '@unigate/contracts';
import type { AnthropicMessagesClient } from '../anthropic-messages/anthropic-messages-client';
import type { MessagesCallOptions, MessagesProvider } from './messages-provider';

/** The upstream speaks the messages format: requests and events pass through untouched. */
export class NativeMessagesProvider implements MessagesProvider {
  constructor(private readonly client: AnthropicMessagesClient) {}

  create(channel: Channel, req: AnthropicMessagesRequest, signal?: AbortSignal, opts?: MessagesCallOptions) {
    return this.client.create(channel, req, signal, opts);
  }

  stream(channel: Channel, req: AnthropicMessagesRequest, signal: AbortSignal, opts?: MessagesCallOptions) {
    return this.client.stream(channel, req, signal, opts);
  }

  countTokens(channel: Channel, req: Parameters<AnthropicMessagesClient['countTokens']>[1], signal?: AbortSignal, opts?: MessagesCallOptions) {
    return this.client.countTokens(channel, req, signal, opts);
  }
}
