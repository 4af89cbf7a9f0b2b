/**
 * messages and messages.count_tokens on the service side. A channel that speaks the messages format
 * gets the request untouched (with `anthropic-beta`) and its events pass through in their exact
 * order; any other channel gets it translated to chat-completions and the answer translated back
 * (translate/openai-chat__anthropic-messages). Either way the answer carries the model name the
 * client asked for.
 */
import {
  acceptedReasoningEffort,
  countPromptTokens,
  countTokensSpec,
  messagesSpec,
  type AnthropicCountTokensRequest,
  type AnthropicCountTokensResponse,
  type AnthropicMessage,
  type AnthropicMessagesRequest,
  type AnthropicStreamEvent,
} from '@unigate/contracts';
import type { CallContext, EndpointAdapter, ServiceEndpoint } from '../adapter';
import { AnthropicMessagesClient } from '../anthropic-messages/anthropic-messages-client';
import { AnthropicUsageTracker } from '../anthropic-messages/anthropic-messages-usage';
import { chatProviderFor } from '../chat-providers';
import { ClientPaths } from '../translate/client-paths';
import type { HttpClient } from '../http/http-client';
import { anthropicToChatRequest, chatChunksToAnthropicEvents, chatToAnthropicResponse } from '../translate/openai-chat__anthropic-messages';
import type { ChatProvider } from '../types';
import { measuredBy, TalliedStream } from '../usage/usage-tally';

const NATIVE = 'anthropic-messages';

const betaOf = (ctx: CallContext) => (ctx.options['anthropic-beta'] ? { beta: ctx.options['anthropic-beta'] } : undefined);

function nativeMessages(
  client: AnthropicMessagesClient,
): EndpointAdapter<AnthropicMessagesRequest, AnthropicMessage, AnthropicStreamEvent> {
  return {
    async call(channel, req, ctx) {
      const msg = await client.create(channel, { ...req, stream: false }, ctx.signal, betaOf(ctx));
      const tracker = new AnthropicUsageTracker(req);
      tracker.message(msg.usage);
      return { value: { ...msg, model: req.model }, usage: tracker.tally.usage() };
    },
    stream(channel, req, ctx) {
      const tracker = new AnthropicUsageTracker(req);
      const events = (async function* () {
        for await (const ev of client.stream(channel, { ...req, stream: true }, ctx.signal, betaOf(ctx))) {
          yield ev.type === 'message_start' ? { ...ev, message: { ...ev.message, model: req.model } } : ev;
        }
      })();
      return new TalliedStream(events, tracker.tally, (ev) => tracker.event(ev));
    },
  };
}

/**
 * The request in chat form, asking only for a reasoning effort the model takes, and the chat provider
 * whose 400s about it name the client's fields (translate/client-paths.ts).
 */
function toChat(req: AnthropicMessagesRequest, ctx: CallContext, chatProvider: ChatProvider) {
  const paths = new ClientPaths();
  const body = anthropicToChatRequest(req, { reasoningEffort: (effort) => acceptedReasoningEffort(ctx.model, effort), paths });
  return { body, chat: paths.naming(chatProvider) };
}

function translatedMessages(chatProvider: ChatProvider): EndpointAdapter<AnthropicMessagesRequest, AnthropicMessage, AnthropicStreamEvent> {
  return {
    async call(channel, req, ctx) {
      const { body, chat } = toChat(req, ctx, chatProvider);
      const res = await chat.complete(channel, { ...body, stream: false }, ctx.signal);
      return { value: chatToAnthropicResponse(res.value, { model: req.model }), usage: res.usage };
    },
    stream(channel, req, ctx) {
      const { body, chat } = toChat(req, ctx, chatProvider);
      const chatReq = { ...body, stream: true, stream_options: { include_usage: true } };
      const chunks = chat.stream(channel, chatReq, ctx.signal);
      // message_start must carry input tokens before the upstream has counted them: estimate them
      // here; the upstream's real numbers follow in message_delta.
      const events = chatChunksToAnthropicEvents(chunks, { model: req.model, inputTokens: countPromptTokens(chatReq.messages) });
      return measuredBy(events, () => chunks.usage());
    },
  };
}

export const messagesEndpoint: ServiceEndpoint<AnthropicMessagesRequest, AnthropicMessage, AnthropicStreamEvent> = {
  spec: messagesSpec,
  adapter(protocol, http) {
    if (protocol === NATIVE) return nativeMessages(new AnthropicMessagesClient(http));
    const chat = chatProviderFor(protocol, http);
    return chat && translatedMessages(chat);
  },
};

/** Counting is not billed: the usage is always empty. */
export const countTokensEndpoint: ServiceEndpoint<AnthropicCountTokensRequest, AnthropicCountTokensResponse> = {
  spec: countTokensSpec,
  adapter(protocol, http: HttpClient) {
    if (protocol === NATIVE) {
      const client = new AnthropicMessagesClient(http);
      return { call: async (channel, req, ctx) => ({ value: await client.countTokens(channel, req, ctx.signal, betaOf(ctx)), usage: {} }) };
    }
    if (!chatProviderFor(protocol, http)) return undefined;
    // Chat-completions upstreams have no counting endpoint: the gateway's own estimate, the same one
    // the simulator uses and billing holds against.
    return {
      call: async (_channel, req) => ({ value: { input_tokens: countPromptTokens(anthropicToChatRequest(req).messages) }, usage: {} }),
    };
  },
};
