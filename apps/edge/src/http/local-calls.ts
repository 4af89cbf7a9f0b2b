/**
 * Requests made in process on the edge's own Fastify routes (`inject`): an MCP tool call, or a
 * WebSocket-mode `response.create`, is the HTTP request it stands for, with the same authentication,
 * validation, routing, limits, hold, billing and error rendering as over the network, nothing copied.
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { BodyTicket } from '@unigate/platform';
import type { FastifyInstance } from 'fastify';

export interface LocalRequest {
  method: 'GET' | 'POST';
  /** Path and query, e.g. /v1/chat/completions */
  url: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as multipart/form-data instead. */
  form?: FormData;
  /** The MCP request's: when its client goes away, the call is abandoned as an HTTP client's would be. */
  signal?: AbortSignal;
}

export interface LocalAnswer {
  status: number;
  contentType: string;
  body: Buffer;
  requestId: string;
}

export type LocalHttp = (request: LocalRequest) => Promise<LocalAnswer>;

/** An answer whose body is read as it comes. */
export interface LocalStreamingAnswer extends Omit<LocalAnswer, 'body'> {
  body: Readable;
}

export type LocalStreamingHttp = (request: LocalRequest) => Promise<LocalStreamingAnswer>;

/** Names an in-process call, so that its (simulated) connection can be cut; unknown values do nothing. */
const CALL_HEADER = 'x-unigate-local-call';

/** What an in-process call under way brings to its request. */
interface PendingCall {
  signal?: AbortSignal;
  /** The body share of the request it is made for. */
  bodyTicket?: BodyTicket;
}

/** In-process requests on `fastify`, each made with its caller's credentials. */
export class LocalCalls {
  /** The calls under way, by their CALL_HEADER value. */
  private readonly pending = new Map<string, PendingCall>();

  constructor(private readonly fastify: FastifyInstance) {
    fastify.addHook('onRequest', (request, reply, done) => {
      const id = request.headers[CALL_HEADER];
      const call = typeof id === 'string' ? this.pending.get(id) : undefined;
      if (!call) return done();
      // Before the body budget's hook (preParsing) reads it.
      request.bodyTicket = call.bodyTicket;
      // An injected request does not close its response when its signal aborts (a real socket would):
      // cutting it here is what a pipeline route watches for to stop the upstream call and free the slot.
      const signal = call.signal;
      if (signal?.aborted) reply.raw.destroy();
      else signal?.addEventListener('abort', () => reply.raw.destroy(), { once: true });
      done();
    });
  }

  /**
   * Requests carrying `authorization` (the caller's own header: the MCP request's, the WebSocket's
   * handshake), as if made on the origin the caller used (links in answers and webhooks point there;
   * the loopback peer's forwarded headers are believed). `bodyTicket`: the body share of the request
   * they are made for, which their bodies join (both are in memory until it is answered).
   */
  as(authorization: string, origin: { protocol: string; host: string }, bodyTicket?: BodyTicket): LocalHttp {
    return async (request) => {
      const res = await this.inject(authorization, origin, request, false, bodyTicket);
      return { ...answerOf(res), body: res.rawPayload };
    };
  }

  /**
   * The same requests, answered as soon as their headers are: the body is read as it is written (a
   * stream of events), and cutting `signal` cuts the request as a client leaving would.
   */
  streamingAs(authorization: string, origin: { protocol: string; host: string }): LocalStreamingHttp {
    return async (request) => {
      const res = await this.inject(authorization, origin, request, true);
      return { ...answerOf(res), body: res.stream() };
    };
  }

  private async inject(
    authorization: string,
    origin: { protocol: string; host: string },
    { method, url, body, form, signal }: LocalRequest,
    payloadAsStream: boolean,
    bodyTicket?: BodyTicket,
  ): Promise<LightResponse> {
    const payload = form
      ? await encodeForm(form)
      : body !== undefined
        ? { type: 'application/json', bytes: JSON.stringify(body) }
        : undefined;
    const id = randomUUID();
    if (signal || bodyTicket) this.pending.set(id, { signal, bodyTicket });
    try {
      return await this.fastify.inject({
        method,
        url,
        remoteAddress: '127.0.0.1',
        headers: {
          authorization,
          host: origin.host,
          'x-forwarded-host': origin.host,
          'x-forwarded-proto': origin.protocol,
          [CALL_HEADER]: id,
          ...(payload && { 'content-type': payload.type }),
        },
        ...(payload && { payload: payload.bytes }),
        payloadAsStream,
      });
    } finally {
      // A streamed answer goes on after its headers: its signal is watched by the hook from here on.
      this.pending.delete(id);
    }
  }
}

type LightResponse = Awaited<ReturnType<FastifyInstance['inject']>>;

const answerOf = (res: LightResponse) => ({
  status: res.statusCode,
  contentType: String(res.headers['content-type'] ?? ''),
  requestId: String(res.headers['x-request-id'] ?? ''),
});

/** The multipart encoding of a form, boundary included, as fetch would send it. */
async function encodeForm(form: FormData): Promise<{ type: string; bytes: Buffer }> {
  const encoded = new Response(form);
  return { type: encoded.headers.get('content-type')!, bytes: Buffer.from(await encoded.arrayBuffer()) };
}
