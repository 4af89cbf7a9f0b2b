import { status as GrpcStatus } from '@grpc/grpc-js';
import { errors, GatewayError } from '@unigate/contracts';
import { fromGrpcError, toGrpcStatus } from './errors';

describe('GatewayError across gRPC', () => {
  it('comes back as the same typed error', () => {
    const sent = toGrpcStatus(errors.notFound("Response with id 'resp_1'"));
    expect(sent.code).toBe(GrpcStatus.NOT_FOUND);
    expect(fromGrpcError(sent)).toMatchObject({ status: 404, code: 'not_found', message: "Response with id 'resp_1' not found." });
  });

  it.each([
    ['UNAVAILABLE', GrpcStatus.UNAVAILABLE],
    ['DEADLINE_EXCEEDED', GrpcStatus.DEADLINE_EXCEEDED],
    // A service shutting down past its deadline cancels the calls it still runs (forceShutdown): a
    // stream cut by a SIGTERM read "Internal error … This is a bug" (QA probe, 2026-12-01).
    ['CANCELLED by the server', GrpcStatus.CANCELLED],
  ])('%s without a typed error is a 503 to retry', (_name, code) => {
    const err = fromGrpcError({ code, details: 'whatever the transport said' });
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ status: 503, code: 'service_unavailable', retryable: true });
  });

  it('sends a storage failure of a service as the 503 it is (a full disk answered 500 "this is a bug")', () => {
    const sent = toGrpcStatus(Object.assign(new Error('No space left on device'), { code: 'ENOSPC' }));
    expect(sent.code).toBe(GrpcStatus.UNAVAILABLE);
    expect(fromGrpcError(sent)).toMatchObject({ status: 503, code: 'service_unavailable', retryable: true });
  });

  it('leaves any other failure untyped (the renderer logs it and answers 500 with its id)', () => {
    const err = fromGrpcError(Object.assign(new Error('boom'), { code: GrpcStatus.INTERNAL }));
    expect(GatewayError.is(err)).toBe(false);
  });

  it('keeps UNIMPLEMENTED as it came: the session pool reads it as "this service has no Session"', () => {
    const raw = Object.assign(new Error('12 UNIMPLEMENTED'), { code: GrpcStatus.UNIMPLEMENTED });
    expect(fromGrpcError(raw)).toBe(raw);
  });
});
