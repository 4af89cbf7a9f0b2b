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

/** One unary call; a failure comes back as the GatewayError the service threw; `signal` cancels it. */
export function unary<Req, Res>(method: UnaryMethod<Req, Res>, req: Req, signal?: AbortSignal): Promise<Res> {
  return new Promise((resolve, reject) => {
    const call = method(req, {}, (err, res) => {
      signal?.removeEventListener('abort', cancel);
      if (err) reject(signal?.aborted ? (signal.reason ?? fromGrpcError(err)) : fromGrpcError(err));
      else resolve(res as Res);
    });
    const cancel = () => call.cancel();
    signal?.addEventListener('abort', cancel, { once: true });
  });
}
