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
import type { HttpClient, HttpResponse } from '../http/http-client';
import { postUpstream } from '../http/post-upstream';
import { parseJson, readJsonBody } from '../http/read-json-body';
import { streamFailure } from '../http/transport-errors';
import { readSse } from '../sse/sse-reader';
import { toGeminiRequest } from '../translate/openai-chat__gemini-generate/openai-chat__gemini-generate.request';
import { toChatResponse } from '../translate/openai-chat__gemini-generate/openai-chat__gemini-generate.response';
import { GeminiToChatStream } from '../translate/openai-chat__gemini-generate/openai-chat__gemini-generate.stream';
import type { ChatProvider } from '../types';
import { geminiHttpError, geminiStreamError } from './gemini-generate-errors';
import { geminiGenerateUrl, geminiHeaders } from './gemini-generate-request';
import { geminiResponseSchema } from './gemini-generate-schemas';

export class GeminiGenerateAdapter implements ChatProvider {
  constructor(private readonly http: HttpClient) {}

  async complete(channel: Channel, body: ChatCompletionRequest, signal?: AbortSignal): Promise<ChatCompletionResponse> {
    const res = await this.send(channel, body, false, signal);
    const data = await readJsonBody(res, geminiResponseSchema, 'generateContent response', signal);
    return toChatResponse(data, body);
  }

  async *stream(channel: Channel, body: ChatCompletionRequest, signal?: AbortSignal): AsyncGenerator<ChatCompletionChunk> {
    const res = await this.send(channel, body, true, signal);
    const translator = new GeminiToChatStream(body);
    let yielded = 0;
    try {
      for await (const ev of readSse(res.body)) {
        const json = parseJson(ev.data);
        if (json && typeof json === 'object' && 'error' in json) throw geminiStreamError(ev.data, yielded === 0);
        const chunk = geminiResponseSchema.safeParse(json);
        if (!chunk.success) {
          throw errors.upstream(
            502,
            `upstream sent an invalid stream chunk: ${chunk.error.issues[0]?.message ?? 'not JSON'}`,
            yielded === 0,
          );
        }
        for (const out of translator.push(chunk.data)) {
          yielded++;
          yield out;
        }
      }
    } catch (err) {
      throw streamFailure(err, signal, yielded === 0);
    }
    // No [DONE] in Gemini's stream: a body that ends before every candidate finished was cut short.
    if (!translator.finished) throw errors.upstream(502, 'upstream stream ended unexpectedly', yielded === 0);
    yield translator.usageChunk();
  }

  private async send(channel: Channel, body: ChatCompletionRequest, stream: boolean, signal?: AbortSignal): Promise<HttpResponse> {
    // Translate first: a request Gemini cannot express is the client's 400, before any upstream call.
    const payload = JSON.stringify(toGeminiRequest(body));
    return postUpstream(
      this.http,
      { url: geminiGenerateUrl(channel, stream), headers: geminiHeaders(channel, stream), body: payload, signal },
      geminiHttpError,
    );
  }
}
