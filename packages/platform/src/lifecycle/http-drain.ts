/**
 * Graceful shutdown of an HTTP server: stop accepting, close what nobody waits on, let what is being
 * answered finish within a deadline, then close the rest. A request still sending its body when the
 * drain starts (a stalled upload) is closed at once: it has produced nothing and would only hold the
 * process until the deadline.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from '../logger';

export class HttpDrain {
  /** Requests whose body is still arriving (onRequest until preHandler). */
  private readonly receiving = new Set<FastifyRequest>();
  /** Requests being answered (preHandler until the response ends). */
  private readonly handling = new Set<FastifyRequest>();

  /** Tracks every request of `fastify`; call before routes are registered. */
  attach(fastify: FastifyInstance): void {
    // Callback hooks: they run on every request, and an async one costs a promise and a microtask turn each.
    fastify.addHook('onRequest', (request, reply, done) => {
      this.receiving.add(request);
      // A connection that closes without a response (the client left) ends the request too. The
      // listener goes on the response, which closes with the request or with its connection: one on
      // the socket would stay there for every request a keep-alive connection ever carried.
      reply.raw.once('close', () => this.forget(request));
      done();
    });
    fastify.addHook('preHandler', (request, _reply, done) => {
      this.receiving.delete(request);
      this.handling.add(request);
      done();
    });
    fastify.addHook('onResponse', (request, _reply, done) => {
      this.forget(request);
      done();
    });
    fastify.addHook('onRequestAbort', (request, done) => {
      this.forget(request);
      done();
    });
  }

  private forget(request: FastifyRequest): void {
    this.receiving.delete(request);
    this.handling.delete(request);
  }

  get inFlight(): number {
    return this.handling.size;
  }

  /**
   * Stops `fastify`'s server from accepting, closes idle and stalled connections now, waits up to
   * `deadlineMs` for the answers in flight, then closes every connection left.
   */
  async drain(fastify: FastifyInstance, deadlineMs: number, logger?: Logger): Promise<void> {
    const server = fastify.server;
    server.close(() => undefined);
    server.closeIdleConnections();
    for (const request of this.receiving) request.raw.socket?.destroy();
    const until = Date.now() + deadlineMs;
    while (this.handling.size > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    if (this.handling.size > 0)
      logger?.warn({ requests: this.handling.size, deadline_ms: deadlineMs }, 'shutdown deadline passed; closing answers in flight');
    server.closeAllConnections();
  }
}
