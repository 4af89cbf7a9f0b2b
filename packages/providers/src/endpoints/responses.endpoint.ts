/**
 * responses on the service side. A channel that speaks the Responses API gets the request as the
 * client sent it (the model swapped) and its events pass through; any other chat channel gets it
 * translated to chat completions, whose answer or chunks are translated back into a response or the
 * typed event sequence (translate/openai-chat__openai-responses). Either way the answer carries the
 * model name the client asked for. Continuations and storage happen around this, in the chat service.
 */
import {
  acceptedReasoningEffort,
  responseIdFor,
  responsesSpec,
  type ResponsesRequest,
  type ResponsesResponse,
  type ResponsesStreamEvent,
} from '@unigate/contracts';
import type { CallContext, EndpointAdapter, ServiceEndpoint } from '../adapter';
import { chatProviderFor } from '../chat-providers';
import { ClientPaths } from '../translate/client-paths';
import { OpenAiResponsesClient } from '../openai-responses/openai-responses-client';
import { ResponsesUsageTracker } from '../openai-responses/openai-responses-usage';
import {
  chatChunksToResponsesEvents,
  chatToResponsesResponse,
  responsesToChatRequest,
  type ResponseContext,
} from '../translate/openai-chat__openai-responses';
import type { ChatProvider } from '../types';
import { measuredBy, TalliedStream } from '../usage/usage-tally';

const NATIVE = 'openai-responses';

type Adapter = EndpointAdapter<ResponsesRequest, ResponsesResponse, ResponsesStreamEvent>;

/**
 * The answer as the client asked for it: its model name, whatever the channel calls it, and the
 * previous_response_id it continued (the gateway resolved it; the upstream never saw it).
 */
function asAsked(res: ResponsesResponse, req: ResponsesRequest): ResponsesResponse {
  return { ...res, model: req.model, previous_response_id: req.previous_response_id ?? null };
}

function eventAsAsked(ev: ResponsesStreamEvent, req: ResponsesRequest): ResponsesStreamEvent {
  if (!('response' in ev) || !ev.response || typeof ev.response !== 'object') return ev;
  return { ...ev, response: asAsked(ev.response as ResponsesResponse, req) } as ResponsesStreamEvent;
}

function nativeResponses(client: OpenAiResponsesClient): Adapter {
  return {
    async call(channel, req, ctx) {
      const res = await client.create(channel, req, ctx.signal);
      const tracker = new ResponsesUsageTracker(req);
      tracker.response(res);
      return { value: asAsked(res, req), usage: tracker.tally.usage() };
    },
    stream(channel, req, ctx) {
      const tracker = new ResponsesUsageTracker(req);
      const events = (async function* () {
        for await (const ev of client.stream(channel, req, ctx.signal)) yield eventAsAsked(ev, req);
      })();
      return new TalliedStream(events, tracker.tally, (ev) => tracker.event(ev));
    },
  };
}

/** A 400 about the chat request it became names the client's field (translate/client-paths.ts). */
function translatedResponses(chatProvider: ChatProvider): Adapter {
  const translate = (req: ResponsesRequest, ctx: CallContext) => {
    const paths = new ClientPaths();
    const { body, tools } = responsesToChatRequest(req, {
      reasoningEffort: (effort) => acceptedReasoningEffort(ctx.model, effort),
      paths,
    });
    const context: ResponseContext = { req, id: responseIdFor(ctx.request_id), tools, createdAt: Math.floor(Date.now() / 1000) };
    return { body, context, chat: paths.naming(chatProvider) };
  };
  return {
    async call(channel, req, ctx) {
      const { body, context, chat } = translate(req, ctx);
      const res = await chat.complete(channel, { ...body, stream: false }, ctx.signal);
      return { value: chatToResponsesResponse(res.value, context), usage: res.usage };
    },
    stream(channel, req, ctx) {
      const { body, context, chat } = translate(req, ctx);
      const chunks = chat.stream(channel, { ...body, stream: true, stream_options: { include_usage: true } }, ctx.signal);
      return measuredBy(chatChunksToResponsesEvents(chunks, context), () => chunks.usage());
    },
  };
}

export const responsesEndpoint: ServiceEndpoint<ResponsesRequest, ResponsesResponse, ResponsesStreamEvent> = {
  spec: responsesSpec,
  adapter(protocol, http) {
    if (protocol === NATIVE) return nativeResponses(new OpenAiResponsesClient(http));
    const chat = chatProviderFor(protocol, http);
    return chat && translatedResponses(chat);
  },
};
