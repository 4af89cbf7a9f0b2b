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
