/**
 * ChatProvider for channels that speak the Responses API (models OpenAI serves only there): our chat
 * request is translated (translate/openai-chat__openai-responses), sent with the native client, and
 * the response or the event stream translated back — so chat completions and messages work on such
 * a channel too. /v1/responses itself passes through natively (endpoints/responses.endpoint.ts).
 */
import type { Channel, ChatCompletionChunk, ChatCompletionRequest, ChatCompletionResponse } from '@unigate/contracts';
import type { Measured, MeasuredStream } from '../adapter';
import { chatToResponsesRequest, responsesEventsToChatChunks, responsesToChatResponse } from '../translate/openai-chat__openai-responses';
import type { ChatProvider } from '../types';
import { measureChatResponse, measureChatStream } from '../usage/chat-usage';
import type { OpenAiResponsesClient } from './openai-responses-client';

export class OpenAiResponsesChatProvider implements ChatProvider {
  constructor(private readonly client: OpenAiResponsesClient) {}

  async complete(channel: Channel, body: ChatCompletionRequest, signal?: AbortSignal): Promise<Measured<ChatCompletionResponse>> {
    const res = await this.client.create(channel, chatToResponsesRequest(body, { model: channel.upstream_model }), signal);
    return measureChatResponse(responsesToChatResponse(res, { model: body.model }), body);
  }

  stream(channel: Channel, body: ChatCompletionRequest, signal?: AbortSignal): MeasuredStream<ChatCompletionChunk> {
    const events = this.client.stream(channel, chatToResponsesRequest(body, { model: channel.upstream_model }), signal);
    return measureChatStream(responsesEventsToChatChunks(events, { model: body.model }), body);
  }
}
