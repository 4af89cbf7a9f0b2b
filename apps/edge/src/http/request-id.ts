import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { httpDuration, httpRequests } from '@unigate/platform';

/** `req_` + 24 hex chars: unique, log-friendly, and echoed in every response as x-request-id. */
export function newRequestId(): string {
  return `req_${randomBytes(12).toString('hex')}`;
}

export function registerRequestHooks(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  fastify.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    httpRequests.inc({ route, status: String(reply.statusCode) });
    httpDuration.observe({ route }, reply.elapsedTime / 1000);
  });
}
