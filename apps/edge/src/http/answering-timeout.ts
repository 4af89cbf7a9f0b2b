/**
 * UNIGATE_IDLE_TIMEOUT_MS is for clients: a connection nobody uses, or a client that stops reading its
 * answer. While the gateway itself is still working on an answer (waiting on an upstream, whose own
 * timeouts bound the wait: 10 minutes to a whole completion's headers, 5 between two chunks of a
 * stream) with nothing left unwritten, the client is not idle, and cutting its connection would throw
 * away an answer it is waiting for: a long non-streamed completion, a reasoning model's first token.
 *
 * Node calls a response's `timeout` listener instead of destroying its socket. This one re-arms the
 * timer while the request is whole and the socket has nothing waiting to be written; otherwise (a
 * client that stopped reading) it destroys the socket, as Node would.
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

export function registerAnsweringTimeout(fastify: FastifyInstance): void {
  // A callback hook: it runs on every request, and an async one costs a promise and a microtask turn.
  fastify.addHook('preHandler', (_request, reply, done) => {
    reply.raw.on('timeout', keepWhileAnswering);
    done();
  });
}

/** A response's `timeout` listener (exported for its spec). */
export function keepWhileAnswering(this: ServerResponse, socket: Socket): void {
  if (this.req.complete && socket.writableLength === 0 && socket.timeout) socket.setTimeout(socket.timeout);
  else socket.destroy();
}
