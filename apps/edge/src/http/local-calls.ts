/**
 * Requests made in process on the edge's own Fastify routes (`inject`): an MCP tool call, or a
 * WebSocket-mode `response.create`, is the HTTP request it stands for, with the same authentication,
 * validation, routing, limits, hold, billing and error rendering as over the network, nothing copied.
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
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

/** In-process requests on `fastify`, each made with its caller's credentials. */
export class LocalCalls {
  /** The signals of the calls under way, by their CALL_HEADER value. */
  private readonly pending = new Map<string, AbortSignal>();

  constructor(private readonly fastify: FastifyInstance) {
    // An injected request does not close its response when its signal aborts (a real socket would):
    // cutting it here is what a pipeline route watches for to stop the upstream call and free the slot.
    fastify.addHook('onRequest', (request, reply, done) => {
      const id = request.headers[CALL_HEADER];
      const signal = typeof id === 'string' ? this.pending.get(id) : undefined;
      if (signal?.aborted) reply.raw.destroy();
      else signal?.addEventListener('abort', () => reply.raw.destroy(), { once: true });
      done();
    });
  }

  /**
   * Requests carrying `authorization` (the caller's own header: the MCP request's, the WebSocket's
   * handshake), as if made on the origin the caller used (links in answers and webhooks point there;
   * the loopback peer's forwarded headers are believed).
   */
  as(authorization: string, origin: { protocol: string; host: string }): LocalHttp {
    return async (request) => {
      const res = await this.inject(authorization, origin, request, false);
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
  ): Promise<LightResponse> {
    const payload = form
      ? await encodeForm(form)
      : body !== undefined
        ? { type: 'application/json', bytes: JSON.stringify(body) }
        : undefined;
    const id = randomUUID();
    if (signal) this.pending.set(id, signal);
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
