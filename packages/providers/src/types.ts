/**
 * The contract every chat adapter fulfils, whatever the upstream speaks: our OpenAI-format request in,
 * our OpenAI-format response or chunks out — measured (usage/chat-usage.ts) — and failures as
 * GatewayErrors (retryable when another channel may succeed). Adapters are stateless apart from
 * their connection pools. The messages and responses endpoints translate on top of this contract.
 */
import type { Channel, ChatCompletionChunk, ChatCompletionRequest, ChatCompletionResponse } from '@unigate/contracts';
import type { Measured, MeasuredStream } from './adapter';

export interface ChatProvider {
  /** One complete answer. `body.stream` is ignored: this always asks the upstream for JSON. */
  complete(channel: Channel, body: ChatCompletionRequest, signal?: AbortSignal): Promise<Measured<ChatCompletionResponse>>;
  /**
   * Chunks as the upstream sends them; the last one carries the usage (`choices: []`) whether or not
   * the client asked for it — forwarding it is the caller's choice. Throws a GatewayError when the
   * stream fails or ends early, after yielding what came; when `signal` aborts, throws its reason.
   */
  stream(channel: Channel, body: ChatCompletionRequest, signal?: AbortSignal): MeasuredStream<ChatCompletionChunk>;
}
