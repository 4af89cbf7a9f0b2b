/**
 * With tracing on, the server span of each request is named by its route and carries the request id:
 * the HTTP instrumentation names it by method alone ("POST"), and nothing joined the x-request-id a
 * customer quotes to its trace. Registered only when an exporter is configured: no cost otherwise.
 */
import { trace } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import { tracingConfigured } from '@unigate/platform';
import { routeOf } from './request-id';

export function registerRequestSpan(fastify: FastifyInstance, env: NodeJS.ProcessEnv = process.env): void {
  if (!tracingConfigured(env)) return;
  fastify.addHook('onRequest', (request, _reply, done) => {
    const span = trace.getActiveSpan();
    if (span) {
      const route = routeOf(request);
      span.updateName(`${request.method} ${route}`);
      span.setAttributes({ 'http.route': route, 'unigate.request_id': String(request.id) });
    }
    done();
  });
}
