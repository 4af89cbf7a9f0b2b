/**
 * The EndpointPort over gRPC (endpoint.proto): the server side wraps a capability service's runner,
 * the client side is what the edge calls in distributed mode. Every request, answer and stream item
 * is decoded against its endpoint spec's schema; items are written as they come and read as the
 * caller consumes them, so backpressure holds from the upstream to the client socket.
 */
import {
  endpointSpec,
  errors,
  modelRouteSchema,
  tierFromWire,
  type AnyEndpointSpec,
  type EndpointCall,
  type EndpointPort,
  type UpstreamTiming,
} from '@unigate/contracts';
import type {
  EndpointCall as EndpointCallMsg,
  EndpointCall__Output,
  EndpointFrame__Output,
  EndpointReply__Output,
  EndpointServiceHandlers,
} from '@unigate/proto';
import { fromGrpcError } from './errors';
import { grpcClient, unary } from './grpc-client';
import { streamHandler, unaryHandler } from './grpc-server';
import { encodeWithBlobs } from './wire-blobs';
import { decodeJson, encodeJson } from './wire-json';

function specOf(name: string): AnyEndpointSpec {
  const spec = endpointSpec(name);
  if (!spec) throw errors.invalidRequest(`Unknown endpoint '${name}'.`, null, 'unknown_endpoint');
  return spec;
}

function encodeCall(call: EndpointCall): EndpointCallMsg {
  const body = encodeWithBlobs(call.body);
  return {
    endpoint: call.endpoint,
    request_id: call.request_id,
    account_id: call.account_id,
    key_id: call.key_id,
    tier: call.tier ?? '',
    hold_id: call.hold_id ?? '',
    route: encodeJson(call.route),
    body: body.json,
    body_blobs: body.blobs,
    options: call.options,
    files: call.files?.map((f) => ({ ...f })),
    traceparent: call.traceparent ?? '',
  };
}

function decodeCall(msg: EndpointCall__Output): EndpointCall {
  const spec = specOf(msg.endpoint);
  return {
    endpoint: msg.endpoint,
    request_id: msg.request_id,
    account_id: msg.account_id,
    key_id: msg.key_id,
    tier: tierFromWire(msg.tier),
    hold_id: msg.hold_id || null,
    route: decodeJson(modelRouteSchema, msg.route, 'route', 'request'),
    body: decodeJson(spec.request, msg.body, 'body', 'request', msg.body_blobs),
    options: { ...msg.options },
    files: msg.files.length
      ? msg.files.map((f) => ({ field: f.field, filename: f.filename, content_type: f.content_type, data: f.data }))
      : undefined,
    traceparent: msg.traceparent || undefined,
  };
}

/** Server side: the EndpointService handlers over a capability service's port. */
export function endpointServiceHandlers(port: EndpointPort): EndpointServiceHandlers {
  return {
    Call: unaryHandler(async (msg: EndpointCall__Output, signal) => {
      const timing: UpstreamTiming = { ms: 0 };
      const answer = encodeWithBlobs(await port.call(decodeCall(msg), signal, timing));
      return { body: answer.json, blobs: answer.blobs, upstream_ms: timing.ms };
    }),
    Stream: streamHandler(async function* (msg: EndpointCall__Output, signal) {
      const timing: UpstreamTiming = { ms: 0 };
      // A binary answer's chunks (audio) travel as they are; every other item as checked JSON.
      for await (const item of port.stream(decodeCall(msg), signal, timing)) {
        if (item instanceof Uint8Array) yield { data: item, upstream_ms: timing.ms };
        else {
          const frame = encodeWithBlobs(item);
          yield { item: frame.json, blobs: frame.blobs, upstream_ms: timing.ms };
        }
      }
    }),
  };
}

/** Client side: a capability service reached over gRPC. */
export class GrpcEndpointClient implements EndpointPort {
  private readonly client;

  constructor(url: string) {
    this.client = grpcClient('endpoint', url);
  }

  async call(call: EndpointCall, signal?: AbortSignal, timing?: UpstreamTiming): Promise<unknown> {
    const spec = specOf(call.endpoint);
    const reply = await unary<EndpointCallMsg, EndpointReply__Output>(this.client.Call.bind(this.client), encodeCall(call), signal);
    if (timing) timing.ms += reply.upstream_ms;
    return decodeJson(spec.response, reply.body, `${call.endpoint} answer`, 'peer', reply.blobs);
  }

  async *stream(call: EndpointCall, signal: AbortSignal, timing?: UpstreamTiming): AsyncIterable<unknown> {
    const spec = specOf(call.endpoint);
    if (!spec.event && !spec.binary) throw errors.invalidRequest(`${spec.path} does not stream`, 'stream');
    const event = spec.event;
    const stream = this.client.Stream(encodeCall(call));
    const cancel = () => stream.cancel();
    signal.addEventListener('abort', cancel, { once: true });
    let ended = false;
    try {
      const base = timing?.ms ?? 0;
      for await (const frame of stream as AsyncIterable<EndpointFrame__Output>) {
        if (timing) timing.ms = base + frame.upstream_ms;
        yield event ? decodeJson(event, frame.item, `${call.endpoint} stream item`, 'peer', frame.blobs) : frame.data;
      }
      ended = true;
    } catch (err) {
      throw signal.aborted ? (signal.reason ?? err) : fromGrpcError(err);
    } finally {
      signal.removeEventListener('abort', cancel);
      // The consumer stopped early (client gone, or a failure upstream of it): end the call.
      if (!ended) stream.cancel();
    }
  }
}
