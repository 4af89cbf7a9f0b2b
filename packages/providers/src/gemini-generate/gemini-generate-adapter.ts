/**
 * ChatProvider for upstreams that speak Gemini's generateContent protocol (gamma chat models): our
 * chat request is translated to Gemini's, the answer or stream back to chat-completions
 * (translate/openai-chat__gemini-generate). Failures follow the ChatProvider contract: retryable
 * only while nothing has reached the caller.
 */
import {
  errors,
  type Channel,
  type ChatCompletionChunk,
  type ChatCompletionRequest,
  type ChatCompletionResponse,
} from '@unigate/contracts';
import type { Measured, MeasuredStream } from '../adapter';
import type { HttpClient, HttpResponse } from '../http/http-client';
import { postUpstream } from '../http/post-upstream';
import { readJsonBody } from '../http/read-json-body';
import { readUpstreamStream, type UpstreamStreamFormat } from '../sse/upstream-stream';
import { toGeminiRequest } from '../translate/openai-chat__gemini-generate/openai-chat__gemini-generate.request';
import { toChatResponse } from '../translate/openai-chat__gemini-generate/openai-chat__gemini-generate.response';
import { GeminiToChatStream } from '../translate/openai-chat__gemini-generate/openai-chat__gemini-generate.stream';
import type { ChatProvider } from '../types';
import { measureChatResponse, measureChatStream } from '../usage/chat-usage';
import { geminiErrorPolicy } from './gemini-generate-errors';
import { geminiGenerateUrl, geminiHeaders } from './gemini-generate-request';
import { geminiResponseSchema, type GeminiResponse } from './gemini-generate-schemas';

/** Every `data:` line is a whole response; there is no end marker (the translator knows when it is done). */
const STREAM: UpstreamStreamFormat<GeminiResponse> = {
  what: 'stream chunk',
  schema: geminiResponseSchema,
  errorPolicy: geminiErrorPolicy,
  isError: (_ev, json) => typeof json === 'object' && json !== null && 'error' in json,
  requireEnd: false,
};

export class GeminiGenerateAdapter implements ChatProvider {
  constructor(private readonly http: HttpClient) {}

  async complete(channel: Channel, body: ChatCompletionRequest, signal?: AbortSignal): Promise<Measured<ChatCompletionResponse>> {
    const res = await this.send(channel, body, false, signal);
    const data = await readJsonBody(res, geminiResponseSchema, 'generateContent response', signal);
    return measureChatResponse(toChatResponse(data, body), body);
  }

  stream(channel: Channel, body: ChatCompletionRequest, signal?: AbortSignal): MeasuredStream<ChatCompletionChunk> {
    const send = () => this.send(channel, body, true, signal);
    async function* chunks() {
      const translator = new GeminiToChatStream(body);
      let yielded = 0;
      for await (const chunk of readUpstreamStream(await send(), STREAM, signal)) {
        for (const out of translator.push(chunk)) {
          yielded++;
          yield out;
        }
      }
      // No end marker in Gemini's stream: a body that ends before every candidate finished was cut short.
      if (!translator.finished) throw errors.upstream(502, 'upstream stream ended unexpectedly', yielded === 0);
      const usage = translator.usageChunk();
      if (usage) yield usage;
    }
    return measureChatStream(chunks(), body);
  }

  private send(channel: Channel, body: ChatCompletionRequest, stream: boolean, signal?: AbortSignal): Promise<HttpResponse> {
    // Translate first: a request Gemini cannot express is the client's 400, before any upstream call.
    const payload = JSON.stringify(toGeminiRequest(body));
    return postUpstream(
      this.http,
      { url: geminiGenerateUrl(channel, stream), headers: geminiHeaders(channel, stream), body: payload, signal, whole: !stream },
      geminiErrorPolicy,
    );
  }
}
