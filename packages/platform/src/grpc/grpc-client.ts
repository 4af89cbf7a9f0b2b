/** gRPC clients of the internal services, on @grpc/grpc-js directly (see grpc-server.ts). */
import * as grpc from '@grpc/grpc-js';
import { loadService, type ServiceName, type ServiceTypes } from '@unigate/proto';
import { fromGrpcError, serviceUnavailable } from './errors';
import { GRPC_MAX_MESSAGE_BYTES } from './grpc-server';

/** How often a connection is pinged, and how long the peer has to answer before it is given up. */
export interface Keepalive {
  timeMs: number;
  timeoutMs: number;
}

/** Control-plane connections: their calls carry deadlines (CONTROL_CALL), so a dead peer is found by them first. */
export const CONTROL_KEEPALIVE: Readonly<Keepalive> = Object.freeze({ timeMs: 30_000, timeoutMs: 10_000 });

/**
 * Endpoint connections (edge → chat, media, video): their calls have no deadline (an answer may take
 * minutes), so a service that hangs with calls in flight on an open connection (a paused or frozen
 * process, a partition) is found only by the ping going unanswered: within 15 s, after which those
 * calls fail with a 503 and the next ones open a new connection. A service whose event loop is blocked
 * longer than the timeout loses its connections the same way; it answers nothing meanwhile either.
 */
export const ENDPOINT_KEEPALIVE: Readonly<Keepalive> = Object.freeze({ timeMs: 10_000, timeoutMs: 5_000 });

/**
 * The longest wait between two attempts to reach a service that is down. grpc-js's default grows to
 * 120 s (1 s, then ×1.6, for the internet): a service down for 100 s went on getting every call
 * failed with a 503 for 43 s after it was back, since a channel in backoff fails calls at once
 * without trying (QA probe, 2026-12-01). A connection attempt inside the cluster costs next to nothing.
 */
export const RECONNECT_BACKOFF_MAX_MS = 2_000;

export function grpcClient<N extends ServiceName>(
  name: N,
  url: string,
  keepalive: Keepalive = CONTROL_KEEPALIVE,
): ServiceTypes[N]['client'] {
  const { Client } = loadService(name);
  return new Client(url, grpc.credentials.createInsecure(), {
    'grpc.max_receive_message_length': GRPC_MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': GRPC_MAX_MESSAGE_BYTES,
    'grpc.keepalive_time_ms': keepalive.timeMs,
    'grpc.keepalive_timeout_ms': keepalive.timeoutMs,
    'grpc.keepalive_permit_without_calls': 1,
    'grpc.max_reconnect_backoff_ms': RECONNECT_BACKOFF_MAX_MS,
    // No `grpc-node.flow_control_window`: HTTP/2's 64 KiB bounds what an answer a slow client does not
    // read can leave in this process per call (grpc-server.ts, GRPC_FLOW_CONTROL_WINDOW_BYTES).
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

/** The options of a control-plane call: CONTROL_CALL_DEADLINE_MS. */
export const CONTROL_CALL: Readonly<UnaryOptions> = Object.freeze({ deadlineMs: CONTROL_CALL_DEADLINE_MS });

/**
 * A unary call's failure. UNIMPLEMENTED is a service of the previous version that lacks a method this
 * caller has (mid rolling upgrade): a 503 to retry, not a 500. Not in fromGrpcError: the session pool
 * reads UNIMPLEMENTED on Session as "call per call instead" (endpoint-transport.ts).
 */
function failure(err: grpc.ServiceError): Error {
  return err.code === grpc.status.UNIMPLEMENTED ? serviceUnavailable() : fromGrpcError(err);
}

/**
 * One unary call; a failure comes back as the GatewayError the service threw (or a 503: unreachable,
 * too late, or a method the service does not have yet). A bare AbortSignal for `opts` is still taken
 * as the signal (this package's earlier form).
 */
export function unary<Req, Res>(method: UnaryMethod<Req, Res>, req: Req, opts: UnaryOptions | AbortSignal = {}): Promise<Res> {
  const { signal, deadlineMs }: UnaryOptions = opts instanceof AbortSignal ? { signal: opts } : opts;
  return new Promise((resolve, reject) => {
    const options: grpc.CallOptions = deadlineMs === undefined ? {} : { deadline: Date.now() + deadlineMs };
    const call = method(req, options, (err, res) => {
      signal?.removeEventListener('abort', cancel);
      if (err) reject(signal?.aborted ? (signal.reason ?? failure(err)) : failure(err));
      else resolve(res as Res);
    });
    const cancel = () => call.cancel();
    signal?.addEventListener('abort', cancel, { once: true });
  });
}

/**
 * How long setting up a connection to a service (TCP, then the server's HTTP/2 settings) may take.
 * grpc-js waits for the settings without a limit: to a process that is stopped or hung, whose kernel
 * still accepts the connection, every call would queue behind it for good.
 */
export const CONNECT_TIMEOUT_MS = 5_000;

/**
 * Resolves true once `client`'s channel is past connecting — ready, or failed (a call then fails fast,
 * as it would have) — and false when it is still connecting after `timeoutMs`, or was shut down
 * meanwhile. Ready is answered at once: this is on every endpoint call's path.
 */
export function connectedWithin(client: grpc.Client, timeoutMs: number): true | Promise<boolean> {
  const channel = client.getChannel();
  let state = channel.getConnectivityState(false);
  if (state === grpc.connectivityState.READY) return true;
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve) => {
    const settle = (): void => {
      try {
        state = channel.getConnectivityState(true);
      } catch {
        return resolve(false); // closed
      }
      // Shut down: given up while this waited (another call found it stuck).
      if (state === grpc.connectivityState.SHUTDOWN) return resolve(false);
      if (state !== grpc.connectivityState.IDLE && state !== grpc.connectivityState.CONNECTING) return resolve(true);
      if (Date.now() >= deadline) return resolve(false);
      channel.watchConnectivityState(state, deadline, settle);
    };
    settle();
  });
}
