/** gRPC clients of the internal services, on @grpc/grpc-js directly (see grpc-server.ts). */
import * as grpc from '@grpc/grpc-js';
import { loadService, type ServiceName, type ServiceTypes } from '@unigate/proto';
import { fromGrpcError } from './errors';
import { GRPC_MAX_MESSAGE_BYTES } from './grpc-server';

export function grpcClient<N extends ServiceName>(name: N, url: string): ServiceTypes[N]['client'] {
  const { Client } = loadService(name);
  return new Client(url, grpc.credentials.createInsecure(), {
    'grpc.max_receive_message_length': GRPC_MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': GRPC_MAX_MESSAGE_BYTES,
    'grpc.keepalive_time_ms': 30_000,
    'grpc.keepalive_timeout_ms': 10_000,
    'grpc.keepalive_permit_without_calls': 1,
  });
}

type UnaryMethod<Req, Res> = (
  req: Req,
  options: grpc.CallOptions,
  callback: (err: grpc.ServiceError | null, res?: Res) => void,
) => grpc.ClientUnaryCall;

/**
 * The deadline of a control-plane call (keys, accounts, money, routes, task lookups): a service that
 * stopped answering without closing its connections (hung, paused, partitioned) would otherwise hold
 * the caller until the connection's keepalive gives up, and a call made after that, on a new connection
 * the stopped process's kernel still accepts, forever. Endpoint calls carry no deadline: an upstream
 * answer may take minutes, and the client's own disconnect cancels them.
 */
export const CONTROL_CALL_DEADLINE_MS = 10_000;

export interface UnaryOptions {
  /** Cancels the call. */
  signal?: AbortSignal;
  /** Fails the call (a 503, as an unreachable service) when no answer came within this many ms. */
  deadlineMs?: number;
}

/** One unary call; a failure comes back as the GatewayError the service threw (or a 503: unreachable, too late). */
export function unary<Req, Res>(method: UnaryMethod<Req, Res>, req: Req, opts: UnaryOptions = {}): Promise<Res> {
  const { signal, deadlineMs } = opts;
  return new Promise((resolve, reject) => {
    const options: grpc.CallOptions = deadlineMs === undefined ? {} : { deadline: Date.now() + deadlineMs };
    const call = method(req, options, (err, res) => {
      signal?.removeEventListener('abort', cancel);
      if (err) reject(signal?.aborted ? (signal.reason ?? fromGrpcError(err)) : fromGrpcError(err));
      else resolve(res as Res);
    });
    const cancel = () => call.cancel();
    signal?.addEventListener('abort', cancel, { once: true });
  });
}
