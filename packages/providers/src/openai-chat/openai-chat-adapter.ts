/**
 * ChatProvider for upstreams that speak OpenAI's chat-completions protocol (OpenAI itself, the many
 * compatible vendors, and the simulator).
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
import type { ChatProvider } from '../types';
import { openAiChatHttpError, openAiChatStreamError } from './openai-chat-errors';
import { chatCompletionsUrl, openAiChatHeaders, toOpenAiChatBody } from './openai-chat-request';
import { toChatChunk, toChatResponse } from './openai-chat-response';
import { upstreamChunkSchema, upstreamCompletionSchema } from './openai-chat-schemas';

export class OpenAiChatAdapter implements ChatProvider {
  constructor(private readonly http: HttpClient) {}

  async complete(channel: Channel, body: ChatCompletionRequest, signal?: AbortSignal): Promise<ChatCompletionResponse> {
    const res = await this.send(channel, body, false, signal);
    const data = await readJsonBody(res, upstreamCompletionSchema, 'chat completion', signal);
    return toChatResponse(data, body);
  }

  async *stream(channel: Channel, body: ChatCompletionRequest, signal?: AbortSignal): AsyncGenerator<ChatCompletionChunk> {
    const res = await this.send(channel, body, true, signal);
    let yielded = 0;
    let done = false;
    try {
      for await (const ev of readSse(res.body)) {
        // Keep reading after [DONE] so the body ends cleanly and the socket goes back to the pool.
        if (done) continue;
        if (ev.data === '[DONE]') {
          done = true;
          continue;
        }
        const json = parseJson(ev.data);
        if (ev.event === 'error' || (json && typeof json === 'object' && 'error' in json)) {
          throw openAiChatStreamError(ev.data, yielded === 0);
        }
        const chunk = upstreamChunkSchema.safeParse(json);
        if (!chunk.success) {
          throw errors.upstream(
            502,
            `upstream sent an invalid stream chunk: ${chunk.error.issues[0]?.message ?? 'not JSON'}`,
            yielded === 0,
          );
        }
        yielded++;
        yield toChatChunk(chunk.data, body);
      }
    } catch (err) {
      throw streamFailure(err, signal, yielded === 0);
    }
    // Nothing reached the caller yet → as safe to retry as a failed connection; otherwise it is not.
    if (!done) throw errors.upstream(502, 'upstream stream ended unexpectedly', yielded === 0);
  }

  private async send(channel: Channel, body: ChatCompletionRequest, stream: boolean, signal?: AbortSignal): Promise<HttpResponse> {
    return postUpstream(
      this.http,
      {
        url: chatCompletionsUrl(channel),
        headers: openAiChatHeaders(channel, stream),
        body: JSON.stringify(toOpenAiChatBody(channel, body, stream)),
        signal,
      },
      openAiChatHttpError,
    );
  }
}
