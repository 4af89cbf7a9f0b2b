/**
 * The one place a failure becomes an HTTP answer. Known failures are GatewayErrors; Fastify's own
 * errors (bad JSON, body too large, unsupported media type) are mapped; a storage failure a retry can
 * get past is a 503 (storageFailure); anything else is a bug: it is logged with an error id and
 * answered as a 500 carrying that id.
 */
import { randomUUID } from 'node:crypto';
import { HttpException } from '@nestjs/common';
import { errors, GatewayError, renderError, speaksAnthropic, type ErrorShape } from '@unigate/contracts';
import { rejections, storageFailure, type Logger } from '@unigate/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { dropUnreadBody } from './unread-body';

export function toGatewayError(err: unknown, logger: Logger, requestId: string): GatewayError {
  if (GatewayError.is(err)) return err;
  const fe = err as { code?: unknown; statusCode?: number; message?: string };
  // Not every `code` is Fastify's string: an AbortError (DOMException) carries the number 20, gRPC errors a status.
  const code = typeof fe?.code === 'string' ? fe.code : '';
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return errors.payloadTooLarge(BODY_LIMIT_BYTES);
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return errors.invalidRequest('Unsupported Content-Type; send application/json.', null, 'unsupported_media_type');
  if (code.startsWith('FST_ERR_CTP') || code === 'FST_ERR_VALIDATION')
    return errors.invalidRequest(fe.message ?? 'Invalid request body', null, 'invalid_body');
  // Fastify plugins' own client errors (multipart: file too large, too many parts, malformed form).
  if (code.startsWith('FST_') && typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    if (fe.statusCode === 413)
      return new GatewayError({ status: 413, code: 'request_too_large', message: fe.message ?? 'Request too large.' });
    return errors.invalidRequest(fe.message ?? 'Invalid request body', null, 'invalid_body');
  }
  if (err instanceof HttpException) {
    // Nest wraps Fastify's own errors (body limit, media type, routing) in HttpExceptions.
    const status = err.getStatus();
    if (status === 404) return new GatewayError({ status: 404, code: 'unknown_endpoint', message: err.message || 'Unknown endpoint.' });
    if (status === 413) return errors.payloadTooLarge(BODY_LIMIT_BYTES);
    if (status === 415) return errors.invalidRequest('Unsupported Content-Type; send application/json.', null, 'unsupported_media_type');
    if (status < 500) return new GatewayError({ status, code: 'invalid_request', message: err.message });
  }
  const errorId = randomUUID();
  // A full disk or a database restarting: the operator's to fix (logged as an error), the client's to retry.
  const storage = storageFailure(err);
  if (storage) {
    logger.error({ error_id: errorId, request_id: requestId, err }, 'storage failed');
    return storage;
  }
  logger.error({ error_id: errorId, request_id: requestId, err }, 'unhandled error');
  return errors.internal(errorId);
}

export const BODY_LIMIT_BYTES = 32 * 1024 * 1024;

/**
 * Any failure of a request, answered in the shape its endpoint speaks: a pipeline route's spec shape
 * (errors of its hooks and body parsing included), otherwise by path.
 */
export function replyWithError(err: unknown, request: FastifyRequest, reply: FastifyReply, logger: Logger) {
  if (reply.sent || reply.raw.headersSent) return;
  if (clientLeft(err, request)) {
    // Not our failure and no one to answer: its access line (status 499) records it.
    // The path only: a query may carry a credential (a signed link's signature).
    logger.debug({ request_id: String(request.id), method: request.method, url: request.url.split('?')[0] }, 'client aborted the request');
    reply.raw.destroy();
    return;
  }
  const spec = request.routeOptions?.config?.spec;
  // A body refused before the route's handler ran (bad JSON, too large, bad encoding) still gets the
  // headers its endpoint answers with (the messages endpoints' request-id).
  for (const [name, value] of Object.entries(spec?.replyHeaders?.(String(request.id)) ?? {})) void reply.header(name, value);
  const shape = spec?.errorShape() ?? pathShape(request);
  return sendError(reply, request, toGatewayError(err, logger, String(request.id)), shape);
}

/** A route outside the pipeline answers in Anthropic's shape on /v1/messages, and to an Anthropic client on the model list. */
function pathShape(request: FastifyRequest): ErrorShape {
  if (request.url.startsWith('/v1/messages')) return 'anthropic';
  return request.url.startsWith('/v1/models') && speaksAnthropic(request.headers) ? 'anthropic' : 'B';
}

/** The client went away mid-request (an aborted upload, a reset): there is nobody left to answer. */
function clientLeft(err: unknown, request: FastifyRequest): boolean {
  const code = (err as { code?: unknown })?.code;
  return Boolean(request.raw.socket?.destroyed) || code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE';
}

/**
 * Whether trying the same request again can help, as the official SDKs judge it (408, 409, 429, 5xx).
 * Said outright in `x-should-retry`, which the SDKs and Claude Code obey: without it Claude Code
 * retries even a wrong key for a minute.
 */
export function shouldRetry(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

export function sendError(reply: FastifyReply, request: FastifyRequest, err: GatewayError, shape: ErrorShape, model?: string) {
  dropUnreadBody(request, reply);
  // A client that left (499) was not refused.
  if (err.status < 500 && err.status !== 499) rejections.inc({ model: model ?? 'other', reason: String(err.status) });
  if (err.retryAfter !== undefined) void reply.header('retry-after', String(err.retryAfter));
  void reply.header('x-should-retry', String(shouldRetry(err.status)));
  return reply.status(err.status).send(renderError(err, shape, String(request.id)));
}
