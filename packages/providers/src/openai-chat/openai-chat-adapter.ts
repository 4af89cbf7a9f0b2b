/**
 * ChatProvider for upstreams that speak OpenAI's chat-completions protocol (OpenAI itself, the many
 * compatible vendors, and the simulator).
 */
import type { Channel, ChatCompletionChunk, ChatCompletionRequest, ChatCompletionResponse } from '@unigate/contracts';
import type { Measured, MeasuredStream } from '../adapter';
import type { HttpClient, HttpResponse } from '../http/http-client';
import { postUpstream } from '../http/post-upstream';
import { readJsonBody } from '../http/read-json-body';
import { readUpstreamStream, type UpstreamStreamFormat } from '../sse/upstream-stream';
import type { ChatProvider } from '../types';
import { measureChatResponse, measureChatStream } from '../usage/chat-usage';
import { openAiErrorPolicy } from './openai-chat-errors';
import { chatCompletionsUrl, openAiChatHeaders, toOpenAiChatBody } from './openai-chat-request';
import { toChatChunk, toChatResponse } from './openai-chat-response';
import { upstreamChunkSchema, upstreamCompletionSchema, type UpstreamChunk } from './openai-chat-schemas';

const STREAM: UpstreamStreamFormat<UpstreamChunk> = {
  what: 'stream chunk',
  schema: upstreamChunkSchema,
  errorPolicy: openAiErrorPolicy,
  isError: (ev, json) => ev.event === 'error' || (typeof json === 'object' && json !== null && 'error' in json),
  isEndMarker: (ev) => ev.data === '[DONE]',
  requireEnd: true,
};

export class OpenAiChatAdapter implements ChatProvider {
  constructor(private readonly http: HttpClient) {}

  async complete(channel: Channel, body: ChatCompletionRequest, signal?: AbortSignal): Promise<Measured<ChatCompletionResponse>> {
    const res = await this.send(channel, body, false, signal);
    const data = await readJsonBody(res, upstreamCompletionSchema, 'chat completion', signal);
    return measureChatResponse(toChatResponse(data, body), body);
  }

  stream(channel: Channel, body: ChatCompletionRequest, signal?: AbortSignal): MeasuredStream<ChatCompletionChunk> {
    const send = () => this.send(channel, body, true, signal);
    async function* chunks() {
      for await (const chunk of readUpstreamStream(await send(), STREAM, signal)) yield toChatChunk(chunk, body);
    }
    return measureChatStream(chunks(), body);
  }

  private send(channel: Channel, body: ChatCompletionRequest, stream: boolean, signal?: AbortSignal): Promise<HttpResponse> {
    return postUpstream(
      this.http,
      {
        url: chatCompletionsUrl(channel),
        headers: openAiChatHeaders(channel, stream),
        body: JSON.stringify(toOpenAiChatBody(channel, body, stream)),
        signal,
        whole: !stream,
      },
      openAiErrorPolicy,
    );
  }
}
