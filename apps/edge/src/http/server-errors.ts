/**
 * Answers Node and Fastify give before any route runs — malformed HTTP, headers too large, a body
 * or headers that arrive too slowly, a path parameter too long, an unmet `Expect` — in our Shape B
 * instead of their own bodies (or none).
 */
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { GatewayError, renderError } from '@unigate/contracts';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { newRequestId } from './request-id';

const rendered = (status: number, code: string, message: string) =>
  JSON.stringify(renderError(new GatewayError({ status, code, message }), 'B', newRequestId()));

/** What Node's parser reports, by its error code. */
function clientErrorAnswer(code: string | undefined): [number, string, string] {
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'request_header_fields_too_large', 'The request headers are too large.'];
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'request_timeout', 'The request was not received in time.'];
  return [400, 'invalid_http', 'The request is not valid HTTP.'];
}

/** Fastify's `clientErrorHandler`: the socket gets one answer in our shape, then closes. */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  // A reset or a peer that already left cannot be answered.
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, code, message] = clientErrorAnswer(err.code);
  const body = rendered(status, code, message);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** Fastify's `frameworkErrors`: routing failures (a malformed URL, a parameter over maxParamLength). */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode ?? 400;
  const code = status === 414 ? 'uri_too_long' : 'invalid_url';
  void reply
    .status(status)
    .header('content-type', 'application/json; charset=utf-8')
    .send(rendered(status, code, status === 414 ? 'The request URL is too long.' : 'The request URL is not valid.'));
}

/** Node answers an `Expect` other than 100-continue with an empty 417; give it a body. */
export function answerUnmetExpectations(server: Server): void {
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    const body = rendered(417, 'expectation_failed', 'Only "Expect: 100-continue" is supported.');
    res.writeHead(417, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
}
