import type { FastifyInstance, FastifyRequest } from 'fastify';
import { httpDuration, httpRequests, processIds, type Logger } from '@unigate/platform';

// 64 random bits per process and a counter: unique across replicas and restarts (the id is also the
// hold's and the ledger entry's key).
const nextId = processIds(8, 8);

/** `req_` + 16 hex chars of this process + a base-36 sequence: log-friendly, echoed as x-request-id. */
export function newRequestId(): string {
  return `req_${nextId()}`;
}

type CounterChild = ReturnType<typeof httpRequests.labels>;
type HistogramChild = ReturnType<typeof httpDuration.labels>;

/** A request's route as metrics, logs and spans name it: its registered path, never user input. */
export const routeOf = (request: FastifyRequest): string => request.routeOptions.url ?? 'unmatched';

/** Probes and scrapes come every few seconds: an access line each would bury the requests. */

declare module 'fastify' {
  interface FastifyRequest {
    /** Its access line and metrics are written (registerRequestHooks). */
    accessCounted: boolean;
  }
}

const QUIET_ROUTES = /^\/(health|metrics)\b/;

/**
 * Request ids, the request metrics and one access line per request (`request`, at info: method,
 * route, status, ms, and the key's id once known), which a client's x-request-id finds.
 */
export function registerRequestHooks(fastify: FastifyInstance, logger: Logger): void {
  // Its fields are fixed here and hold no secret: no redaction pass (it was 40% of the line's ~9 µs).
  const access = logger.child({}, { redact: [] });
  // Label children looked up once per route and status (a route is a registered path, never user input).
  const counted = new Map<string, CounterChild>();
  const timed = new Map<string, HistogramChild>();
  // Counted once: an injected request (a WebSocket-mode response.create, an MCP tool call) reaches
  // onResponse and then `close` without being `writableFinished`. A decorated field keeps every
  // request's shape the same, and costs a few ns where a WeakSet cost ~200.
  fastify.decorateRequest('accessCounted', false);
  const count = (request: FastifyRequest, status: number, elapsedMs: number) => {
    if (request.accessCounted) return;
    request.accessCounted = true;
    const route = routeOf(request);
    const key = `${status} ${route}`;
    let counter = counted.get(key);
    if (!counter) counted.set(key, (counter = httpRequests.labels(route, String(status))));
    counter.inc();
    let histogram = timed.get(route);
    if (!histogram) timed.set(route, (histogram = httpDuration.labels(route)));
    histogram.observe(elapsedMs / 1000);
    if (!QUIET_ROUTES.test(route)) {
      const key_id = request.principal?.key_id;
      const ms = Math.round(elapsedMs * 10) / 10;
      access.info({ request_id: request.id, method: request.method, route, status, ms, ...(key_id && { key_id }) }, 'request');
    }
  };
  // Callback hooks: no promise per request for what is synchronous.
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    // A response whose client left before its end never reaches onResponse: it counts here, as 499
    // (nginx's "client closed request") when no header had gone out, else with the status it had.
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) count(request, reply.raw.headersSent ? reply.statusCode : 499, reply.elapsedTime);
    });
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    count(request, reply.statusCode, reply.elapsedTime);
    done();
  });
}
