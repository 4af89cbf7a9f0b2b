import { ClientProxyFactory, Transport, type ClientGrpc } from '@nestjs/microservices';
import { fromGrpcError } from '@unigate/platform';
import { LOADER_OPTIONS, SERVICES, type ServiceName } from '@unigate/proto';
import { Observable, lastValueFrom } from 'rxjs';

/** Raw gRPC stubs: every method takes a request message and returns an Observable. */
export type GrpcStub = Record<string, (msg: object) => Observable<unknown>>;

const MAX_MESSAGE = 64 * 1024 * 1024;

export function grpcStub(service: ServiceName, url: string): GrpcStub {
  const svc = SERVICES[service];
  const client = ClientProxyFactory.create({
    transport: Transport.GRPC,
    options: {
      package: svc.package,
      protoPath: svc.protoPath,
      url,
      loader: { ...LOADER_OPTIONS },
      maxSendMessageLength: MAX_MESSAGE,
      maxReceiveMessageLength: MAX_MESSAGE,
      keepalive: { keepaliveTimeMs: 30_000, keepaliveTimeoutMs: 10_000, keepalivePermitWithoutCalls: 1 },
    },
  }) as unknown as ClientGrpc;
  return client.getService<GrpcStub>(svc.service);
}

/** One unary call; a failure comes back as the GatewayError the service threw. */
export async function unary<T>(stub: GrpcStub, method: string, msg: object): Promise<T> {
  try {
    return (await lastValueFrom(stub[method](msg))) as T;
  } catch (err) {
    throw fromGrpcError(err);
  }
}

/** A server stream as an async iterable; breaking out of the loop (or aborting) cancels the call. */
export async function* serverStream<T>(stub: GrpcStub, method: string, msg: object, signal: AbortSignal): AsyncIterable<T> {
  const queue: T[] = [];
  let done = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  const subscription = stub[method](msg).subscribe({
    next: (v) => {
      queue.push(v as T);
      notify();
    },
    error: (e) => {
      failure = e;
      done = true;
      notify();
    },
    complete: () => {
      done = true;
      notify();
    },
  });
  const onAbort = () => {
    subscription.unsubscribe();
    done = true;
    notify();
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      if (queue.length) {
        yield queue.shift() as T;
        continue;
      }
      if (done) break;
      await new Promise<void>((resolve) => (wake = resolve));
    }
    if (failure && !signal.aborted) throw fromGrpcError(failure);
  } finally {
    signal.removeEventListener('abort', onAbort);
    subscription.unsubscribe();
  }
}
