/**
 * The native Responses client: our Responses requests in, validated responses and stream events out,
 * failures as GatewayErrors (OpenAI's error body, shared with chat completions). The `/v1/responses`
 * endpoint passes native requests through it.
 *
 * OpenAI adds event and item types over time: events we do not know are skipped — with the events of
 * an output item of an unknown type — rather than failing the stream. A stream is complete only after
 * its terminal event (response.completed, .incomplete or .failed).
 */
import {
  RESPONSES_TERMINAL_EVENTS,
  responsesOutputItemSchema,
  responsesResponseSchema,
  responsesStreamEventSchema,
  type Channel,
  type ResponsesRequest,
  type ResponsesResponse,
  type ResponsesStreamEvent,
} from '@unigate/contracts';
import type { HttpClient, HttpResponse } from '../http/http-client';
import { postUpstream } from '../http/post-upstream';
import { readJsonBody } from '../http/read-json-body';
import { openAiErrorPolicy } from '../openai-chat/openai-chat-errors';
import { readUpstreamStream, type UpstreamStreamFormat } from '../sse/upstream-stream';
import { responsesHeaders, responsesUrl, toUpstreamResponsesBody } from './openai-responses-request';

const TERMINAL = new Set<string>(RESPONSES_TERMINAL_EVENTS);
/** Every event type the contracts' union models (a literal per typed event, an enum for the passthrough ones). */
const KNOWN_EVENTS = new Set<string>(
  responsesStreamEventSchema.options.flatMap((o) => {
    const type = o.shape.type;
    return 'options' in type ? [...type.options] : [type.value];
  }),
);

type RawEvent = { type?: unknown; output_index?: unknown; item?: unknown } | null | undefined;

const STREAM: UpstreamStreamFormat<ResponsesStreamEvent> = {
  what: (json) => (typeof (json as RawEvent)?.type === 'string' ? `${String((json as { type: string }).type)} event` : 'stream event'),
  schema: responsesStreamEventSchema,
  errorPolicy: openAiErrorPolicy,
  isError: (ev, json) => ev.event === 'error' || (json as RawEvent)?.type === 'error',
  isLast: (ev) => TERMINAL.has(ev.type),
  skipper() {
    const skipped = new Set<number>();
    return (json) => {
      const ev = json as RawEvent;
      if (typeof ev?.type !== 'string') return false; // not an event at all: the schema says so
      if (!KNOWN_EVENTS.has(ev.type)) return true;
      const index = typeof ev.output_index === 'number' ? ev.output_index : -1;
      if (ev.type === 'response.output_item.added' && !responsesOutputItemSchema.safeParse(ev.item).success) skipped.add(index);
      return skipped.has(index);
    };
  },
  requireEnd: true,
};

export class OpenAiResponsesClient {
  constructor(private readonly http: HttpClient) {}

  /** One whole response; `req.stream` is ignored. */
  async create(channel: Channel, req: ResponsesRequest, signal?: AbortSignal): Promise<ResponsesResponse> {
    const res = await this.send(channel, req, false, signal);
    return readJsonBody(res, responsesResponseSchema, 'response', signal, dropUnknownItems);
  }

  /**
   * The upstream's events as they come. Throws a GatewayError when the stream fails or ends before its
   * terminal event, after yielding what came (retryable only if nothing was yielded).
   */
  async *stream(channel: Channel, req: ResponsesRequest, signal?: AbortSignal): AsyncGenerator<ResponsesStreamEvent> {
    yield* readUpstreamStream(await this.send(channel, req, true, signal), STREAM, signal);
  }

  private send(channel: Channel, req: ResponsesRequest, stream: boolean, signal?: AbortSignal): Promise<HttpResponse> {
    return postUpstream(
      this.http,
      {
        url: responsesUrl(channel),
        headers: responsesHeaders(channel, stream),
        body: JSON.stringify(toUpstreamResponsesBody(channel, req, stream)),
        signal,
        whole: !stream,
      },
      openAiErrorPolicy,
    );
  }
}

/** Output items of types we do not know are left out of a response (see above). */
function dropUnknownItems(json: unknown): unknown {
  const output = (json as { output?: unknown } | undefined)?.output;
  if (!Array.isArray(output)) return json;
  return { ...(json as object), output: output.filter((item) => responsesOutputItemSchema.safeParse(item).success) };
}
