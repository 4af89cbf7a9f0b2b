/**
 * The EndpointPort over gRPC (endpoint.proto): the server side wraps a capability service's runner,
 * the client side is what the edge calls in distributed mode. The service decodes every request
 * against its endpoint spec's schema. Answers and stream items reach the edge as JSON text (JsonText),
 * written on to the client as they came: the service built them from the upstream's answer, which it
 * checked against the vendor's schema, exactly as in standalone, where the edge serializes the
 * service's object without checking it again. Only an answer that must be read (its links made
 * absolute, or long strings that travelled beside it put back) is decoded and checked. Items are
 * written as they come and read as the caller consumes them, so backpressure holds from the upstream
 * to the client socket.
 */
import {
  endpointSpec,
  errors,
  JsonText,
  modelRouteSchema,
  tierFromWire,
  type AnyEndpointSpec,
  type CallMeter,
  type EndpointCall,
  type EndpointPort,
} from '@unigate/contracts';
import { status } from '@grpc/grpc-js';
import type {
  CallCost,
  CallCost__Output,
  EndpointCall as EndpointCallMsg,
  EndpointFrame,
  EndpointReply,
  SessionCall,
  SessionCall__Output,
  SessionReply,
  SessionReply__Output,
  EndpointCall__Output,
  EndpointFrame__Output,
  EndpointReply__Output,
  EndpointServiceHandlers,
} from '@unigate/proto';
import { fromGrpcError, serviceUnavailable } from './errors';
import { CONNECT_TIMEOUT_MS, connectedWithin, ENDPOINT_KEEPALIVE, grpcClient, unary, type Keepalive } from './grpc-client';
import { bodyMemoryBytesFromEnv, loggedBodyBudget, type BodyBudget, type BodyTicket } from '../http/body-budget';
import type { Logger } from '../logger';
import { sessionHandler, streamHandler, unaryHandler } from './grpc-server';
import { SessionPool, type SessionPoolOptions } from './session-pool';
import { endSpan, serveInSpan, startSessionCallSpan } from './session-tracing';
import { encodeWithBlobs } from './wire-blobs';
import { decodeJson, encodeJson, jsonText, repeatingJsonDecoder } from './wire-json';

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

const decodeRoute = repeatingJsonDecoder(modelRouteSchema, 'route', 'request');

function decodeCall(msg: EndpointCall__Output): EndpointCall {
  const spec = specOf(msg.endpoint);
  return {
    endpoint: msg.endpoint,
    request_id: msg.request_id,
    account_id: msg.account_id,
    key_id: msg.key_id,
    tier: tierFromWire(msg.tier),
    hold_id: msg.hold_id || null,
    route: decodeRoute(msg.route),
    body: decodeJson(spec.request, msg.body, 'body', 'request', msg.body_blobs),
    options: { ...msg.options },
    files: msg.files.length
      ? msg.files.map((f) => ({ field: f.field, filename: f.filename, content_type: f.content_type, data: f.data }))
      : undefined,
    traceparent: msg.traceparent || undefined,
  };
}

/** The meter's cost on the wire: absent when the service recorded no usage. */
function encodeCost(meter: CallMeter): CallCost | null {
  return meter.cost_micros === undefined ? null : { micros: String(meter.cost_micros) };
}

function decodeCost(cost: CallCost__Output | null | undefined, meter: CallMeter | undefined): void {
  if (cost && meter) meter.cost_micros = Number(cost.micros);
}

/**
 * The cost of a call that failed after its usage was recorded (a stream cut off midway, or stopped by
 * its caller), by its error, for the session's failure reply.
 */
const failureCosts = new WeakMap<object, CallCost>();

/** Keeps the meter's cost, if any, with the error the call failed with. */
function keepFailureCost(err: unknown, meter: CallMeter): void {
  const cost = encodeCost(meter);
  if (cost && typeof err === 'object' && err !== null) failureCosts.set(err, cost);
}

/** The cost kept with `err` by keepFailureCost. */
function failureCost(err: unknown): CallCost | undefined {
  return typeof err === 'object' && err !== null ? failureCosts.get(err) : undefined;
}

/** What a call's body weighs as the edge counted it: its JSON, the base64 text its blobs stand for, and its files. */
function bodyBytes(msg: EndpointCall__Output): number {
  let bytes = msg.body.length;
  for (const blob of msg.body_blobs) bytes += Math.ceil(blob.data.length / 3) * 4;
  for (const file of msg.files) bytes += file.data.length;
  return bytes;
}

/**
 * Server side: the EndpointService handlers over a capability service's port. Each call's body counts
 * against `bodyBudget` (UNIGATE_BODY_MEMORY_MB's by default) from its arrival until the call ends:
 * each edge bounds what it sends, but several may send large bodies to one replica at once. A refusal
 * (503, or 429 for a key past its share) goes back to the edge as the client's answer.
 */
export function endpointServiceHandlers(
  port: EndpointPort,
  { logger, bodyBudget = loggedBodyBudget(bodyMemoryBytesFromEnv(), logger) }: { logger: Logger; bodyBudget?: BodyBudget },
): EndpointServiceHandlers {
  /** Counts `msg`'s body until the returned release; throws the refusal. */
  const holdBody = (msg: EndpointCall__Output): (() => void) => {
    const ticket: BodyTicket = { key: msg.key_id, bytes: 0 };
    const refused = bodyBudget.charge(ticket, bodyBytes(msg));
    if (refused) throw refused;
    return () => bodyBudget.release(ticket);
  };
  async function* held<T>(msg: EndpointCall__Output, run: () => AsyncGenerator<T>): AsyncGenerator<T> {
    const release = holdBody(msg);
    try {
      yield* run();
    } finally {
      release();
    }
  }
  const answer = async (call: EndpointCall, signal: AbortSignal, admission?: Promise<void>): Promise<EndpointReply> => {
    const meter: CallMeter = { upstream_ms: 0 };
    let result: unknown;
    try {
      result = await port.call(call, signal, meter, admission);
    } catch (err) {
      keepFailureCost(err, meter);
      throw err;
    }
    const answer = encodeWithBlobs(result);
    return { body: answer.json, blobs: answer.blobs, upstream_ms: meter.upstream_ms, cost: encodeCost(meter) };
  };
  async function* frames(
    call: EndpointCall,
    signal: AbortSignal,
    meter: CallMeter,
    admission?: Promise<void>,
  ): AsyncGenerator<EndpointFrame> {
    const eventName = specOf(call.endpoint).sse?.eventName;
    // A binary answer's chunks (audio) travel as they are; every other item as JSON with its event name.
    for await (const item of port.stream(call, signal, meter, admission)) {
      if (item instanceof Uint8Array) yield { data: item, upstream_ms: meter.upstream_ms };
      else {
        const frame = encodeWithBlobs(item);
        yield { item: frame.json, blobs: frame.blobs, upstream_ms: meter.upstream_ms, event: eventName?.(item) ?? '' };
      }
    }
  }
  return {
    Call: unaryHandler(async (msg, signal) => {
      const release = holdBody(msg);
      try {
        return await answer(decodeCall(msg), signal);
      } finally {
        release();
      }
    }),
    Stream: streamHandler((msg, signal) => held(msg, () => frames(decodeCall(msg), signal, { upstream_ms: 0 }))),
    Session: sessionHandler<SessionCall__Output, SessionReply>(
      ({ call, stream }, signal, released) => {
        if (!call) throw errors.invalidRequest('A session message carries no call.');
        return serveInSpan(call.endpoint, call.traceparent || undefined, () => held(call, () => serve(call, stream, signal, released)));
      },
      (status, err) => ({ error: { ...status, cost: failureCost(err) } }),
      { held: (msg) => msg.held, releases: (msg) => !msg.call && msg.release !== null, stops: (msg) => !msg.call && msg.stop !== null },
    ),
  };

  async function* serve(
    call: EndpointCall__Output,
    stream: boolean,
    signal: AbortSignal,
    released: Promise<void> | undefined,
  ): AsyncGenerator<SessionReply> {
    const decoded = decodeCall(call);
    // Held: decoded and checked while the edge admits it — and translated up to its upstream
    // request by a port that prepares while held. Nothing goes upstream before the release.
    let admission: Promise<void> | undefined;
    if (released && port.preparesWhileHeld) admission = released;
    else if (released) await released;
    if (!stream) return yield { reply: await answer(decoded, signal, admission) };
    const meter: CallMeter = { upstream_ms: 0 };
    try {
      for await (const frame of frames(decoded, signal, meter, admission)) yield { frame };
    } catch (err) {
      keepFailureCost(err, meter);
      throw err;
    }
    yield { end: { cost: encodeCost(meter) } };
  }
}

const RELEASE: SessionCall = { release: {} };
const STOP: SessionCall = { stop: {} };

export interface EndpointClientOptions extends SessionPoolOptions {
  /** How a hung service is found (default ENDPOINT_KEEPALIVE). */
  keepalive?: Keepalive;
}

/** How long a service that lacks Session (an older version, mid-rollout) is called per call instead. */
const SESSIONLESS_MS = 30_000;

/**
 * Client side: a capability service reached over gRPC. Calls and streams run on pooled sessions; a
 * service that answers Session with UNIMPLEMENTED (an older version during a rolling upgrade) is
 * called with Call and Stream instead, and asked again after a while.
 */
export class GrpcEndpointClient implements EndpointPort {
  /** The call travels while the edge admits it; the service holds it until its release (endpoint.proto). */
  readonly overlapsAdmission = true;
  private client;
  private readonly sessions: SessionPool<SessionCall, SessionReply__Output>;
  private sessionlessUntil = 0;
  private readonly keepalive: Keepalive;

  constructor(
    private readonly url: string,
    options: EndpointClientOptions = {},
  ) {
    this.keepalive = options.keepalive ?? ENDPOINT_KEEPALIVE;
    this.client = grpcClient('endpoint', url, this.keepalive);
    this.sessions = new SessionPool(() => this.client.Session(), options);
  }

  async call(call: EndpointCall, signal?: AbortSignal, meter?: CallMeter, admission?: Promise<void>): Promise<unknown> {
    const spec = specOf(call.endpoint);
    const connected = connectedWithin(this.client, CONNECT_TIMEOUT_MS);
    if (connected !== true) await this.connecting(connected);
    let reply: EndpointReply__Output | undefined;
    if (this.sessionsServed()) {
      try {
        reply = await this.answerOnSession(call, signal, admission, meter);
      } catch (err) {
        if (!this.lacksSessions(err)) throw err;
      }
    }
    if (!reply) {
      await admission;
      reply = await this.unary(call, signal);
      decodeCost(reply.cost, meter);
    }
    if (meter) meter.upstream_ms += reply.upstream_ms;
    if (!spec.localize && !spec.inPieces?.when(call.body) && reply.blobs.length === 0) return new JsonText(jsonText(reply.body));
    return decodeJson(spec.response, reply.body, `${call.endpoint} answer`, 'peer', reply.blobs);
  }

  async *stream(call: EndpointCall, signal: AbortSignal, meter?: CallMeter, admission?: Promise<void>): AsyncIterable<unknown> {
    const spec = specOf(call.endpoint);
    if (!spec.event && !spec.binary) throw errors.invalidRequest(`${spec.path} does not stream`, 'stream');
    const event = spec.event;
    const connected = connectedWithin(this.client, CONNECT_TIMEOUT_MS);
    if (connected !== true) await this.connecting(connected);
    const base = meter?.upstream_ms ?? 0;
    let frames: AsyncIterable<EndpointFrame__Output> | undefined;
    if (this.sessionsServed()) {
      const onSession = this.framesOnSession(call, signal, admission, meter);
      try {
        frames = prepend(await onSession.next(), onSession);
      } catch (err) {
        if (!this.lacksSessions(err)) throw err;
      }
    }
    if (!frames) {
      await admission;
      frames = this.perCallStream(call, signal);
    }
    // A service of an older version sends no event names: its items are decoded and named here.
    const unnamed = !spec.sse?.eventName;
    for await (const frame of frames) {
      if (meter) meter.upstream_ms = base + frame.upstream_ms;
      if (!event) yield frame.data;
      else if (frame.blobs.length === 0 && (unnamed || frame.event)) yield new JsonText(jsonText(frame.item), frame.event || undefined);
      else yield decodeJson(event, frame.item, `${call.endpoint} stream item`, 'peer', frame.blobs);
    }
  }

  /**
   * The wait for a connection that is being set up. One still not set up after CONNECT_TIMEOUT_MS (a
   * stopped or hung service) fails the call with a 503, and the channel is replaced: grpc-js would
   * wait on that connection for good, and a new one may reach a replica that answers.
   */
  private async connecting(connected: Promise<boolean>): Promise<void> {
    const client = this.client;
    if (await connected) return;
    if (this.client === client) {
      this.client = grpcClient('endpoint', this.url, this.keepalive);
      client.close();
    }
    throw serviceUnavailable();
  }

  private sessionsServed(): boolean {
    return Date.now() >= this.sessionlessUntil;
  }

  /** Whether `err` says the service has no Session; if so it is called per call for a while. */
  private lacksSessions(err: unknown): boolean {
    if ((err as { code?: unknown } | undefined)?.code !== status.UNIMPLEMENTED) return false;
    this.sessionlessUntil = Date.now() + SESSIONLESS_MS;
    return true;
  }

  private async answerOnSession(
    call: EndpointCall,
    signal?: AbortSignal,
    admission?: Promise<void>,
    meter?: CallMeter,
  ): Promise<EndpointReply__Output> {
    for await (const reply of this.onSession(call, false, signal, admission, meter)) if (reply.reply) return reply.reply;
    throw new Error(`the ${call.endpoint} session ended without an answer`);
  }

  /** The call's frames; its cost, which comes with their end, goes on `meter` (onSession). */
  private async *framesOnSession(
    call: EndpointCall,
    signal: AbortSignal,
    admission?: Promise<void>,
    meter?: CallMeter,
  ): AsyncGenerator<EndpointFrame__Output> {
    for await (const reply of this.onSession(call, true, signal, admission, meter)) {
      if (reply.frame) yield reply.frame;
    }
  }

  /**
   * The call on a pooled session, inside its own CLIENT span: its answer, or its frames up to the end.
   * With `admission` still in flight the call goes out held, and its release once admitted. A caller
   * that leaves stops the call: its last message, which the service still sends, puts what the call
   * cost on `meter` (a stream cut by its client is charged for what it produced, and its hold shrinks
   * to that instead of going back whole).
   */
  private async *onSession(
    call: EndpointCall,
    stream: boolean,
    signal?: AbortSignal,
    admission?: Promise<void>,
    meter?: CallMeter,
  ): AsyncGenerator<SessionReply__Output> {
    const { span, traceparent } = startSessionCallSpan(call.endpoint);
    let failure: unknown;
    try {
      const msg = { call: encodeCall({ ...call, traceparent: traceparent ?? call.traceparent }), stream };
      const hold = admission && { held: { ...msg, held: true }, release: RELEASE, until: admission };
      // The call's last message (answer, end or failure) carries what it cost, also once stopped.
      const takeCost = (r: SessionReply__Output) => decodeCost(r.reply?.cost ?? r.end?.cost ?? r.error?.cost, meter);
      const stop = { req: STOP, last: takeCost };
      for await (const reply of this.sessions.call(msg, { last: (r) => !r.frame, signal, hold, stop })) {
        if (reply.frame) {
          yield reply;
          continue;
        }
        takeCost(reply);
        // A stream cut off after the service recorded usage has its cost on the meter by now.
        if (reply.error) throw fromGrpcError(reply.error);
        yield reply;
        if (reply.end) return;
      }
    } catch (err) {
      throw (failure = err);
    } finally {
      endSpan(span, failure);
    }
  }

  private unary(call: EndpointCall, signal?: AbortSignal): Promise<EndpointReply__Output> {
    return unary<EndpointCallMsg, EndpointReply__Output>(this.client.Call.bind(this.client), encodeCall(call), { signal });
  }

  private async *perCallStream(call: EndpointCall, signal: AbortSignal): AsyncGenerator<EndpointFrame__Output> {
    const stream = this.client.Stream(encodeCall(call));
    const cancel = () => stream.cancel();
    signal.addEventListener('abort', cancel, { once: true });
    let ended = false;
    try {
      yield* stream as AsyncIterable<EndpointFrame__Output>;
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

/** `rest` with the result already taken from it in front. */
async function* prepend<T>(first: IteratorResult<T, unknown>, rest: AsyncGenerator<T, unknown>): AsyncGenerator<T> {
  try {
    if (first.done) return;
    yield first.value;
    yield* rest;
  } finally {
    // Left after the first item, before `rest` was entered: `rest` must still end (its call cancelled).
    await rest.return(undefined);
  }
}
