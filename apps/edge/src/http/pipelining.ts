/**
 * A cap on the requests in flight on one connection. Node's HTTP server starts every request
 * pipelined on a keep-alive connection without waiting for the answers before it, so one connection
 * got around UNIGATE_MAX_CONNECTIONS: 39,000 chat requests written without reading an answer opened
 * 16,000 upstream sockets and starved every other client. No client pipelines this deep (browsers and
 * the SDKs send one request at a time per connection): past the cap, the connection is closed, which
 * cancels what it had in flight.
 */
import type { Socket } from 'node:net';
import { GatewayError } from '@unigate/contracts';
import type { FastifyInstance } from 'fastify';

export const MAX_IN_FLIGHT_PER_CONNECTION = 16;

const IN_FLIGHT = Symbol('unigate.inFlight');
type Counted = Socket & { [IN_FLIGHT]?: number };

export function registerPipeliningCap(fastify: FastifyInstance, max = MAX_IN_FLIGHT_PER_CONNECTION): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const socket = request.raw.socket as Counted;
    const inFlight = (socket[IN_FLIGHT] ?? 0) + 1;
    if (inFlight > max || socket.destroyed) {
      socket.destroy();
      // Nobody reads the answer; the error keeps the request out of the pipeline (and in the access line).
      return done(
        new GatewayError({
          status: 429,
          code: 'too_many_pipelined_requests',
          message: `At most ${max} requests may be in flight on one connection; the connection was closed.`,
        }),
      );
    }
    socket[IN_FLIGHT] = inFlight;
    reply.raw.once('close', () => void (socket[IN_FLIGHT] = (socket[IN_FLIGHT] ?? 1) - 1));
    done();
  });
}
