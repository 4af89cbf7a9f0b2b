/**
 * GatewayError across gRPC: the server sends the typed error as JSON in the status details; the
 * client turns it back into the same GatewayError, so an error keeps its status/shape/code end to end.
 */
import { status as GrpcStatus, type StatusObject } from '@grpc/grpc-js';
import { errors, GatewayError, type GatewayErrorInit } from '@unigate/contracts';
import { storageFailure } from '../storage/storage-failure';

const PREFIX = 'gateway-error:';

function grpcCodeFor(httpStatus: number): GrpcStatus {
  if (httpStatus === 400) return GrpcStatus.INVALID_ARGUMENT;
  if (httpStatus === 401) return GrpcStatus.UNAUTHENTICATED;
  if (httpStatus === 402 || httpStatus === 429) return GrpcStatus.RESOURCE_EXHAUSTED;
  if (httpStatus === 403) return GrpcStatus.PERMISSION_DENIED;
  if (httpStatus === 404) return GrpcStatus.NOT_FOUND;
  if (httpStatus === 504) return GrpcStatus.DEADLINE_EXCEEDED;
  if (httpStatus === 503) return GrpcStatus.UNAVAILABLE;
  return GrpcStatus.INTERNAL;
}

/**
 * Server side: any thrown value → the gRPC status that carries it (a GatewayError as JSON details; a
 * storage failure as the 503 it is, so the edge answers it as one instead of a 500).
 */
export function toGrpcStatus(err: unknown): Pick<StatusObject, 'code' | 'details'> {
  const known = GatewayError.is(err) ? err : storageFailure(err);
  if (!known) return { code: GrpcStatus.INTERNAL, details: err instanceof Error ? err.message : String(err) };
  return { code: grpcCodeFor(known.status), details: PREFIX + JSON.stringify(known.toJSON()) };
}

/** Client side: a gRPC error → the GatewayError it carried, or a 503 for transport failures. */
export function fromGrpcError(err: unknown): Error {
  if (GatewayError.is(err)) return err;
  const e = err as { code?: number; details?: string; message?: string };
  const text = e?.details ?? e?.message ?? '';
  const at = text.indexOf(PREFIX);
  if (at >= 0) {
    try {
      return GatewayError.fromJSON(JSON.parse(text.slice(at + PREFIX.length)) as GatewayErrorInit);
    } catch {
      /* fall through */
    }
  }
  // CANCELLED here is the server's doing: a service past its shutdown deadline cancels the calls it
  // still runs. A caller that cancels its own call is answered with its signal's reason before this.
  if (e?.code === GrpcStatus.UNAVAILABLE || e?.code === GrpcStatus.DEADLINE_EXCEEDED || e?.code === GrpcStatus.CANCELLED)
    return serviceUnavailable();
  return err instanceof Error ? err : new Error(String(err));
}

/** The 503 a caller gets when an internal service cannot be reached. */
export function serviceUnavailable(): GatewayError {
  return errors.unavailable('An internal service is unavailable; retry shortly.');
}
