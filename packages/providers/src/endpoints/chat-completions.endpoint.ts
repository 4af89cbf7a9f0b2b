/**
 * chat.completions on the service side: the chat adapter of the channel's protocol, with the usage
 * chunk passed to the client only when it asked for it (`stream_options.include_usage`) — the
 * adapter always measures.
 */
import { chatCompletionsSpec, type ChatCompletionChunk, type ChatCompletionRequest, type ChatCompletionResponse } from '@unigate/contracts';
import type { ServiceEndpoint } from '../adapter';
import { chatProviderFor } from '../chat-providers';
import { omit } from '../omit';
import { mapMeasured } from '../usage/usage-tally';

const USAGE = new Set(['usage'] as const);

export const chatCompletionsEndpoint: ServiceEndpoint<ChatCompletionRequest, ChatCompletionResponse, ChatCompletionChunk> = {
  spec: chatCompletionsSpec,
  adapter(protocol, http) {
    const chat = chatProviderFor(protocol, http);
    if (!chat) return undefined;
    return {
      call: (channel, req, ctx) => chat.complete(channel, req, ctx.signal),
      stream: (channel, req, ctx) => {
        const includeUsage = req.stream_options?.include_usage === true;
        return mapMeasured(chat.stream(channel, req, ctx.signal), (chunk) => {
          if (includeUsage) return [{ ...chunk, usage: chunk.usage ?? null }];
          if (chunk.choices.length === 0 && chunk.usage) return [];
          return [omit(chunk, USAGE)];
        });
      },
    };
  },
};
