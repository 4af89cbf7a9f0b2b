import type { Logger } from '@unigate/platform';
import { toGatewayError } from './error-renderer';

/** Records what would be logged; toGatewayError logs only the failures it does not know. */
function recordingLogger() {
  const errors: unknown[] = [];
  const logger = { error: (fields: unknown) => errors.push(fields) } as unknown as Logger;
  return { logger, errors };
}

describe('toGatewayError', () => {
  it('turns an abort (a DOMException whose code is the number 20) into a 500, without throwing', () => {
    const controller = new AbortController();
    controller.abort();
    const abort = controller.signal.reason as DOMException;
    expect(abort.name).toBe('AbortError');
    expect(typeof abort.code).toBe('number');
    const { logger, errors } = recordingLogger();

    const err = toGatewayError(abort, logger, 'req_1');

    expect(err.status).toBe(500);
    expect(errors).toEqual([expect.objectContaining({ request_id: 'req_1', err: abort })]);
  });

  it('answers a storage failure (a full disk under the database) 503 to retry, still logged for the operator', () => {
    const { logger, errors } = recordingLogger();
    // TypeORM's QueryFailedError carries the driver's SQLSTATE; 53100 is disk_full.
    const full = Object.assign(new Error('could not extend file "base/5/2619": No space left on device'), { code: '53100' });
    expect(toGatewayError(full, logger, 'req_9')).toMatchObject({
      status: 503,
      code: 'service_unavailable',
      retryable: true,
      retryAfter: 1,
    });
    expect(errors).toEqual([expect.objectContaining({ request_id: 'req_9', err: full })]);
  });

  it('ignores any other non-string code too', () => {
    const { logger } = recordingLogger();
    expect(toGatewayError(Object.assign(new Error('cancelled'), { code: 1 }), logger, 'req_2').status).toBe(500);
  });

  it('still maps Fastify body errors by their string code', () => {
    const { logger, errors } = recordingLogger();
    const err = toGatewayError(
      Object.assign(new Error('Unexpected token'), { code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400 }),
      logger,
      'req_3',
    );
    expect(err.status).toBe(400);
    expect(errors).toEqual([]);
  });
});
