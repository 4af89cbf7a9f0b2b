/**
 * What serves POST /v1/messages for one channel: native pass-through where the upstream speaks the
 * messages format, translation through the chat-completions adapter everywhere else. Picked per
 * protocol in registry.ts, like chat providers.
 */
import type {
  AnthropicCountTokensRequest,
  AnthropicCountTokensResponse,
  AnthropicMessage,
  AnthropicMessagesRequest,
  AnthropicStreamEvent,
  Channel,
} from '@unigate/contracts';

export interface MessagesCallOptions {
  /** `anthropic-beta` features the client asked for (comma-separated); native upstreams receive them. */
  beta?: string;
}

export interface MessagesProvider {
  create(channel: Channel, req: AnthropicMessagesRequest, signal?: AbortSignal, opts?: MessagesCallOptions): Promise<AnthropicMessage>;
  stream(channel: Channel, req: AnthropicMessagesRequest, signal: AbortSignal, opts?: MessagesCallOptions): AsyncIterable<AnthropicStreamEvent>;
  countTokens(channel: Channel, req: AnthropicCountTokensRequest, signal?: AbortSignal, opts?: MessagesCallOptions): Promise<AnthropicCountTokensResponse>;
}
