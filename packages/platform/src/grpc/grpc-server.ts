/**
 * A gRPC server for one process's services, on @grpc/grpc-js directly: handlers are plain objects
 * typed by the generated code, and server streams honour write() backpressure (a framework that
 * wraps streams in Observables cannot, see endpoint-transport.ts).
 */
import * as grpc from '@grpc/grpc-js';
import type { StatusObject } from '@grpc/grpc-js';
import type { Http2Server, ServerHttp2Session } from 'node:http2';
import { loadService, type ServiceName, type ServiceTypes } from '@unigate/proto';
import { toGrpcStatus } from './errors';

export type GrpcHandlers = { [N in ServiceName]?: ServiceTypes[N]['handlers'] };

export interface GrpcServer {
  port: number;
  /** Stops accepting calls and waits up to `graceMs` for running ones, then cancels them. */
  close(graceMs?: number): Promise<void>;
}

export const GRPC_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/**
 * The HTTP/2 flow-control window a service grants its callers, per connection and per stream
 * (grpc-java's default). With HTTP/2's own, 64 KiB, a sender stops for the receiver's WINDOW_UPDATE —
 * one more round trip, and a wake-up of both processes — in every message over about half of it: a
 * coding agent's request (its whole session, 60 KB and up) on its way to chat, on every call. A service
 * reads each message whole before it handles it, so the wider window buffers nothing more. The other
 * way, what the edge receives keeps HTTP/2's default (grpc-client.ts): there it bounds what a slow
 * client's answer can leave unread in the edge, per call.
 */
export const GRPC_FLOW_CONTROL_WINDOW_BYTES = 1024 * 1024;

/**
 * How long a client connection lives before the server asks the client to reconnect (calls running
 * on it finish first). A reconnect resolves the address again and, behind a Service, may land on
 * another replica: without it a connection would stay on the replica it first reached for good, and
 * replicas added later would get no traffic from clients that were already connected.
 */
export const GRPC_MAX_CONNECTION_AGE_MS = 5 * 60_000;

export interface GrpcServerOptions {
  maxConnectionAgeMs?: number;
}

export async function startGrpcServer(address: string, handlers: GrpcHandlers, options: GrpcServerOptions = {}): Promise<GrpcServer> {
  const server = new grpc.Server({
    'grpc.max_receive_message_length': GRPC_MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': GRPC_MAX_MESSAGE_BYTES,
    'grpc.keepalive_permit_without_calls': 1,
    'grpc.max_connection_age_ms': options.maxConnectionAgeMs ?? GRPC_MAX_CONNECTION_AGE_MS,
  });
  const drains: Array<() => void> = [];
  for (const [name, impl] of Object.entries(handlers) as Array<[ServiceName, grpc.UntypedServiceImplementation]>) {
    server.addService(loadService(name).definition, impl);
    for (const method of Object.values(impl)) if (isSessionHandler(method)) drains.push(method[DRAIN]);
  }
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  widenFlowControlWindows(server);
  return {
    port,
    close: (graceMs = 5_000) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        // Idle sessions would hold the shutdown open until the grace runs out: end them now.
        for (const drain of drains) drain();
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      }),
  };
}

/**
 * grpc-js has no server option for the window (grpc/grpc-node#3058), so each HTTP/2 session is widened
 * as it opens: the stream window by SETTINGS, the connection window directly. Reached through the
 * server's HTTP/2 listeners, which grpc-js keeps private: if a version moves them, startup fails here
 * rather than every large call silently paying the round trip again.
 */
function widenFlowControlWindows(server: grpc.Server): void {
  const listeners = (server as unknown as { http2Servers?: Map<Http2Server, unknown> }).http2Servers;
  if (!(listeners instanceof Map) || listeners.size === 0)
    throw new Error('grpc-js keeps its HTTP/2 listeners elsewhere: widenFlowControlWindows needs updating');
  for (const listener of listeners.keys())
    listener.on('session', (session: ServerHttp2Session) => {
      // A connection that failed at once has nothing to widen (and both calls throw on it).
      if (session.destroyed) return;
      session.settings({ initialWindowSize: GRPC_FLOW_CONTROL_WINDOW_BYTES });
      session.setLocalWindowSize(GRPC_FLOW_CONTROL_WINDOW_BYTES);
    });
}

/** A unary handler from an async function: its result is the reply, its throw the status. */
export function unaryHandler<Req, Res>(run: (req: Req, signal: AbortSignal) => Promise<Res>): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    const abort = new AbortController();
    call.on('cancelled', () => abort.abort(new Error('cancelled by the caller')));
    // Through a promise, so a synchronous throw answers with its status too.
    Promise.resolve()
      .then(() => run(call.request, abort.signal))
      .then(
        (res) => callback(null, res),
        (err: unknown) => callback(toGrpcStatus(err)),
      );
  };
}

/**
 * A server-stream handler from an async iterable: each item written as it comes, waiting for the
 * transport to drain when its buffer is full; the caller cancelling aborts `signal`.
 */
export function streamHandler<Req, Res>(
  open: (req: Req, signal: AbortSignal) => AsyncIterable<Res>,
): grpc.handleServerStreamingCall<Req, Res> {
  return (call) => {
    const abort = new AbortController();
    call.on('cancelled', () => abort.abort(new Error('cancelled by the caller')));
    void (async () => {
      try {
        await writeAll(call, open(call.request, abort.signal), abort.signal);
        if (!abort.signal.aborted) call.end();
      } catch (err) {
        if (!abort.signal.aborted) call.emit('error', toGrpcStatus(err));
      }
    })();
  };
}

/** Writes each item as it comes, waiting for `drain` when the transport's buffer is full, until `signal` aborts. */
async function writeAll<Res>(call: NodeJS.EventEmitter & { write(item: Res): boolean }, items: AsyncIterable<Res>, signal: AbortSignal) {
  for await (const item of items) {
    if (signal.aborted) break;
    if (!call.write(item)) await drained(call, signal);
  }
}

function drained(stream: NodeJS.EventEmitter, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    stream.once('drain', done);
    signal.addEventListener('abort', done, { once: true });
  });
}

const DRAIN = Symbol('drain');

/** A bidi handler that keeps its stream open between calls; `[DRAIN]` ends the idle ones for good. */
export type SessionHandler<Req, Res> = grpc.handleBidiStreamingCall<Req, Res> & { [DRAIN]: () => void };

function isSessionHandler(method: unknown): method is SessionHandler<unknown, unknown> {
  return typeof method === 'function' && DRAIN in method;
}

/** The session metadata by which a server says it takes held calls (endpoint.proto's SessionCall.held). */
export const HELD_CALLS_METADATA = 'unigate-held-calls';
/** The session metadata by which a server says it takes stops (endpoint.proto's SessionCall.stop). */
export const SESSION_STOPS_METADATA = 'unigate-session-stops';

/** How a session's messages say that a call is held, that it is released, and that it is to stop. */
export interface SessionControl<Req> {
  /** A call that may run only once its release comes. */
  held(req: Req): boolean;
  /** A message that releases the running held call (it carries no call of its own). */
  releases(req: Req): boolean;
  /** A message that stops the running call (it carries no call of its own). */
  stops(req: Req): boolean;
}

/**
 * A session handler (endpoint.proto's Session): each request message on the stream is one call,
 * answered by the messages `run` yields, one call at a time. A throw is answered by `failed(status,
 * error)` and the session goes on; the caller cancelling the stream aborts the running call. On drain an idle
 * session ends at once and a busy one after its call; a call that arrives after that is not taken (the
 * caller sees the session end unanswered, so it knows the call never started).
 *
 * With `control`, the session says in its initial metadata that it takes held calls and stops. A held
 * call gets `released`, which resolves on its release message and rejects when the call is cancelled
 * or stopped: `run` prepares the call meanwhile and waits for it before doing anything of the call's
 * work. A stop aborts the running call's signal, but unlike a cancel the session stays: whatever
 * `run` still yields is written, its throw answered by `failed` (with the CANCELLED status), so the
 * caller gets the call's last message (and what it cost) and can send the next call. A release or a
 * stop that comes after its call has ended is dropped.
 */
export function sessionHandler<Req, Res>(
  run: (req: Req, signal: AbortSignal, released?: Promise<void>) => AsyncIterable<Res>,
  failed: (status: Pick<StatusObject, 'code' | 'details'>, err: unknown) => Res,
  control?: SessionControl<Req>,
): SessionHandler<Req, Res> {
  const idle = new Set<() => void>();
  let draining = false;
  const handler = (call: grpc.ServerDuplexStream<Req, Res>) => {
    let running: AbortController | undefined;
    let release: (() => void) | undefined;
    let finished = false;
    // Aborted when the caller cancels the whole session: nothing more is written on it.
    const cancelled = new AbortController();
    const finish = () => {
      idle.delete(finish);
      if (finished) return;
      finished = true;
      call.end();
    };
    call.on('cancelled', () => {
      finished = true;
      idle.delete(finish);
      cancelled.abort();
      running?.abort(new Error('cancelled by the caller'));
    });
    // The caller ended its side: no more calls come.
    call.on('end', () => !running && finish());
    call.on('data', (req: Req) => {
      if (finished) return;
      if (control?.releases(req)) {
        release?.();
        release = undefined;
        return;
      }
      if (control?.stops(req)) {
        running?.abort(new Error('stopped by the caller'));
        return;
      }
      if (running) {
        call.emit('error', { code: grpc.status.FAILED_PRECONDITION, details: 'a session carries one call at a time' });
        return;
      }
      const abort = (running = new AbortController());
      let released: Promise<void> | undefined;
      if (control?.held(req)) {
        released = new Promise<void>((resolve, reject) => {
          release = resolve;
          abort.signal.addEventListener('abort', () => reject(abort.signal.reason), { once: true });
        });
        // A call that fails before its release never waits on it.
        released.catch(() => undefined);
      }
      idle.delete(finish);
      void (async () => {
        try {
          await writeAll(call, run(req, abort.signal, released), cancelled.signal);
        } catch (err) {
          // Stopped (not cancelled): the caller waits for this call's last message.
          const status = abort.signal.aborted ? { code: grpc.status.CANCELLED, details: String(abort.signal.reason) } : toGrpcStatus(err);
          if (!cancelled.signal.aborted) call.write(failed(status, err));
        }
        running = undefined;
        release = undefined;
        if (draining || call.readableEnded) finish();
        else if (!finished) idle.add(finish);
      })();
    });
    if (control) call.sendMetadata(controlMetadata());
    if (draining) finish();
    else idle.add(finish);
  };
  return Object.assign(handler, {
    [DRAIN]: () => {
      draining = true;
      for (const finish of [...idle]) finish();
    },
  });
}

function controlMetadata(): grpc.Metadata {
  const metadata = new grpc.Metadata();
  metadata.set(HELD_CALLS_METADATA, '1');
  metadata.set(SESSION_STOPS_METADATA, '1');
  return metadata;
}
