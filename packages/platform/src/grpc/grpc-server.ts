/**
 * A gRPC server for one process's services, on @grpc/grpc-js directly: handlers are plain objects
 * typed by the generated code, and server streams honour write() backpressure (a framework that
 * wraps streams in Observables cannot, see endpoint-transport.ts).
 */
import * as grpc from '@grpc/grpc-js';
import { loadService, type ServiceName, type ServiceTypes } from '@unigate/proto';
import { toGrpcStatus } from './errors';

export type GrpcHandlers = { [N in ServiceName]?: ServiceTypes[N]['handlers'] };

export interface GrpcServer {
  port: number;
  /** Stops accepting calls and waits up to `graceMs` for running ones, then cancels them. */
  close(graceMs?: number): Promise<void>;
}

export const GRPC_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export async function startGrpcServer(address: string, handlers: GrpcHandlers): Promise<GrpcServer> {
  const server = new grpc.Server({
    'grpc.max_receive_message_length': GRPC_MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': GRPC_MAX_MESSAGE_BYTES,
    'grpc.keepalive_permit_without_calls': 1,
  });
  for (const [name, impl] of Object.entries(handlers) as Array<[ServiceName, grpc.UntypedServiceImplementation]>) {
    server.addService(loadService(name).definition, impl);
  }
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return {
    port,
    close: (graceMs = 5_000) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      }),
  };
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
        for await (const item of open(call.request, abort.signal)) {
          if (abort.signal.aborted) break;
          if (!call.write(item)) await drained(call, abort.signal);
        }
        if (!abort.signal.aborted) call.end();
      } catch (err) {
        if (!abort.signal.aborted) call.emit('error', toGrpcStatus(err));
      }
    })();
  };
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
