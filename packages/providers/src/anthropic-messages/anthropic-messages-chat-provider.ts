/**
 * ChatProvider for channels that speak Anthropic Messages: our chat-completions request is translated
 * (translate/openai-chat__anthropic-messages), sent with the native client, and the message or the
 * event stream translated back. Nothing here knows either format's details.
 */
import type { AnthropicUsage, Channel, ChatCompletionChunk, ChatCompletionRequest, ChatCompletionResponse } from '@unigate/contracts';
import type { Measured, MeasuredStream } from '../adapter';
import {
  anthropicToChatResponse,
  AnthropicToChatStream,
  chatToAnthropicRequest,
  DEFAULT_ANTHROPIC_MAX_TOKENS,
} from '../translate/openai-chat__anthropic-messages';
import type { ChatProvider } from '../types';
import { measureChatResponse, measureChatStream } from '../usage/chat-usage';
import type { AnthropicMessagesClient } from './anthropic-messages-client';
import { withOneHourWrites } from './anthropic-messages-usage';

export interface AnthropicChatProviderOptions {
  /**
   * max_tokens for requests that set none (Anthropic requires one). ChatProvider calls carry no
   * model limits, so this is a flat default (4096) rather than the model's own output cap.
   */
  defaultMaxTokens?: number;
}

export class AnthropicMessagesChatProvider implements ChatProvider {
  private readonly defaultMaxTokens: number;

  constructor(
    private readonly client: AnthropicMessagesClient,
    opts: AnthropicChatProviderOptions = {},
  ) {
    this.defaultMaxTokens = opts.defaultMaxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS;
  }

  async complete(channel: Channel, body: ChatCompletionRequest, signal?: AbortSignal): Promise<Measured<ChatCompletionResponse>> {
    const { body: req, jsonTool } = chatToAnthropicRequest(body, {
      model: channel.upstream_model,
      defaultMaxTokens: this.defaultMaxTokens,
    });
    const message = await this.client.create(channel, req, signal);
    const measured = measureChatResponse(anthropicToChatResponse(message, { model: body.model, jsonTool }), body);
    return { ...measured, usage: withOneHourWrites(measured.usage, message.usage) };
  }

  stream(channel: Channel, body: ChatCompletionRequest, signal?: AbortSignal): MeasuredStream<ChatCompletionChunk> {
    const { body: req, jsonTool } = chatToAnthropicRequest(body, {
      model: channel.upstream_model,
      defaultMaxTokens: this.defaultMaxTokens,
    });
    const client = this.client;
    let started: AnthropicUsage | undefined;
    async function* chunks() {
      const translator = new AnthropicToChatStream({ model: body.model, jsonTool });
      for await (const event of client.stream(channel, req, signal)) {
        if (event.type === 'message_start') started = event.message.usage;
        yield* translator.push(event);
      }
    }
    const measured = measureChatStream(chunks(), body);
    return {
      [Symbol.asyncIterator]: () => measured[Symbol.asyncIterator](),
      usage: () => withOneHourWrites(measured.usage(), started),
    };
  }
}
