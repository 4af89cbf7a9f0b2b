/**
 * The native Anthropic Messages client: Anthropic requests in, validated Anthropic messages and
 * stream events out, failures as GatewayErrors. The chat provider translates on top of it; the
 * `/v1/messages` endpoint uses it directly to pass native requests through.
 *
 * Streams are read with the shared SSE reader and every event is checked against the contracts'
 * union. Anthropic may add event, block and delta types at any time ("handle unknown events
 * gracefully"), so unknown ones are skipped — with the deltas and stop of a skipped block — rather
 * than failing the stream. A stream counts as complete only after `message_stop`.
 */
import {
  ANTHROPIC_PASSTHROUGH_BLOCK_TYPES,
  anthropicCountTokensResponseSchema,
  anthropicMessageSchema,
  anthropicStreamEventSchema,
  type AnthropicCountTokensRequest,
  type AnthropicCountTokensResponse,
  type AnthropicMessage,
  type AnthropicMessagesRequest,
  type AnthropicStreamEvent,
  type Channel,
} from '@unigate/contracts';
import type { HttpClient, HttpResponse } from '../http/http-client';
import { postUpstream } from '../http/post-upstream';
import { readJsonBody } from '../http/read-json-body';
import { readUpstreamStream, type UpstreamStreamFormat } from '../sse/upstream-stream';
import { anthropicErrorPolicy } from './anthropic-messages-errors';
import { anthropicHeaders, messagesUrl, toUpstreamBody, type AnthropicHeaderOptions } from './anthropic-messages-request';

const EVENT_TYPES = new Set([
  'message_start',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
  'message_delta',
  'message_stop',
  'ping',
  'error',
]);
const KNOWN_BLOCKS = new Set<string>(['text', 'thinking', 'redacted_thinking', 'tool_use', ...ANTHROPIC_PASSTHROUGH_BLOCK_TYPES]);
const KNOWN_DELTAS = new Set(['text_delta', 'input_json_delta', 'thinking_delta', 'signature_delta', 'citations_delta']);

type RawEvent = { type?: unknown; index?: unknown; content_block?: { type?: unknown }; delta?: { type?: unknown } } | null | undefined;

const STREAM: UpstreamStreamFormat<AnthropicStreamEvent> = {
  what: (json) => (typeof (json as RawEvent)?.type === 'string' ? `${String((json as { type: string }).type)} event` : 'stream event'),
  schema: anthropicStreamEventSchema,
  errorPolicy: anthropicErrorPolicy,
  isError: (ev, json) => ev.event === 'error' || (json as RawEvent)?.type === 'error',
  isLast: (ev) => ev.type === 'message_stop',
  skipper() {
    const skipped = new Set<number>();
    return (json) => {
      const ev = json as RawEvent;
      if (typeof ev?.type !== 'string') return false; // not an event at all: the schema says so
      return !EVENT_TYPES.has(ev.type) || isUnknownBlock(ev, skipped);
    };
  },
  requireEnd: true,
};

export type AnthropicCallOptions = AnthropicHeaderOptions;

export class AnthropicMessagesClient {
  constructor(private readonly http: HttpClient) {}

  /** One whole message; `req.stream` is ignored. */
  async create(
    channel: Channel,
    req: AnthropicMessagesRequest,
    signal?: AbortSignal,
    opts?: AnthropicCallOptions,
  ): Promise<AnthropicMessage> {
    const res = await this.send(channel, '', toUpstreamBody(channel, req, false), false, signal, opts);
    return readJsonBody(res, anthropicMessageSchema, 'message', signal, dropUnknownBlocks);
  }

  /** `{input_tokens}` for a request body without max_tokens. */
  async countTokens(
    channel: Channel,
    req: AnthropicCountTokensRequest,
    signal?: AbortSignal,
    opts?: AnthropicCallOptions,
  ): Promise<AnthropicCountTokensResponse> {
    const res = await this.send(channel, '/count_tokens', toUpstreamBody(channel, req, undefined), false, signal, opts);
    return readJsonBody(res, anthropicCountTokensResponseSchema, 'token count', signal);
  }

  /**
   * The upstream's events as they come, pings included. Throws a GatewayError when the stream fails
   * or ends before message_stop, after yielding what came (retryable only if nothing was yielded);
   * when `signal` aborts, throws its reason.
   */
  async *stream(
    channel: Channel,
    req: AnthropicMessagesRequest,
    signal?: AbortSignal,
    opts?: AnthropicCallOptions,
  ): AsyncGenerator<AnthropicStreamEvent> {
    const res = await this.send(channel, '', toUpstreamBody(channel, req, true), true, signal, opts);
    yield* readUpstreamStream(res, STREAM, signal);
  }

  private send(
    channel: Channel,
    path: '' | '/count_tokens',
    body: Record<string, unknown>,
    stream: boolean,
    signal?: AbortSignal,
    opts?: AnthropicCallOptions,
  ): Promise<HttpResponse> {
    return postUpstream(
      this.http,
      {
        url: messagesUrl(channel, path),
        headers: anthropicHeaders(channel, stream, opts),
        body: JSON.stringify(body),
        signal,
        whole: !stream,
      },
      anthropicErrorPolicy,
    );
  }
}

/** A block of a type we do not know, or a delta/stop belonging to one: skipped (see above). */
function isUnknownBlock(json: NonNullable<RawEvent>, skipped: Set<number>): boolean {
  const index = typeof json.index === 'number' ? json.index : -1;
  if (json.type === 'content_block_start' && !KNOWN_BLOCKS.has(String(json.content_block?.type))) {
    skipped.add(index);
    return true;
  }
  if (json.type === 'content_block_delta') return skipped.has(index) || !KNOWN_DELTAS.has(String(json.delta?.type));
  if (json.type === 'content_block_stop') return skipped.has(index);
  return false;
}

/** Content blocks of types we do not know are left out of a message (see above). */
function dropUnknownBlocks(json: unknown): unknown {
  const content = (json as { content?: unknown } | undefined)?.content;
  if (!Array.isArray(content)) return json;
  return { ...(json as object), content: content.filter((b: { type?: unknown } | null) => KNOWN_BLOCKS.has(String(b?.type))) };
}
