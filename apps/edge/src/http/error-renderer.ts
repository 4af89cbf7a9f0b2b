/**
 * The one place a failure becomes an HTTP answer. Known failures are GatewayErrors; Fastify's own
 * errors (bad JSON, body too large, unsupported media type) are mapped; anything else is a bug: it
 * is logged with an error id and answered as a 500 carrying that id.
 */
import { randomUUID } from 'node:crypto';
import { HttpException } from '@nestjs/common';
import { errors, GatewayError, renderError, type ErrorShape } from '@unigate/contracts';
import { rejections, type Logger } from '@unigate/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';

export function toGatewayError(err: unknown, logger: Logger, requestId: string): GatewayError {
  if (GatewayError.is(err)) return err;
  const fe = err as { code?: string; statusCode?: number; message?: string };
  if (fe?.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return errors.payloadTooLarge(BODY_LIMIT_BYTES);
  if (fe?.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return errors.invalidRequest('Unsupported Content-Type; send application/json.', null, 'unsupported_media_type');
  if (fe?.code?.startsWith('FST_ERR_CTP') || fe?.code === 'FST_ERR_VALIDATION')
    return errors.invalidRequest(fe.message ?? 'Invalid request body', null, 'invalid_body');
  if (err instanceof HttpException) {
    // Nest wraps Fastify's own errors (body limit, media type, routing) in HttpExceptions.
    const status = err.getStatus();
    if (status === 404) return new GatewayError({ status: 404, code: 'unknown_endpoint', message: err.message || 'Unknown endpoint.' });
    if (status === 413) return errors.payloadTooLarge(BODY_LIMIT_BYTES);
    if (status === 415) return errors.invalidRequest('Unsupported Content-Type; send application/json.', null, 'unsupported_media_type');
    if (status < 500) return new GatewayError({ status, code: 'invalid_request', message: err.message });
  }
  const errorId = randomUUID();
  logger.error({ error_id: errorId, request_id: requestId, err }, 'unhandled error');
  return errors.internal(errorId);
}

export const BODY_LIMIT_BYTES = 32 * 1024 * 1024;

export function sendError(reply: FastifyReply, request: FastifyRequest, err: GatewayError, shape: ErrorShape, model?: string) {
  if (err.status < 500) rejections.inc({ model: model ?? 'unknown', reason: String(err.status) });
  if (err.retryAfter !== undefined) void reply.header('retry-after', String(err.retryAfter));
  return reply.status(err.status).send(renderError(err, shape, String(request.id)));
}
