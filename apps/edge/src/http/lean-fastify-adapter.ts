/**
 * Nest's Fastify adapter without @fastify/middie and without Nest's Fastify error handler. The edge has
 * no Express-style middleware, and middie, which the stock adapter registers on init, runs a hook on
 * every request regardless.
 */
import { FastifyAdapter } from '@nestjs/platform-fastify';

export class LeanFastifyAdapter extends FastifyAdapter {
  override async init(): Promise<void> {
    // Nothing to register: see the class comment.
  }

  override createMiddlewareFactory(): never {
    throw new Error('The edge registers no Nest middleware (use a Fastify hook instead)');
  }

  override use(): never {
    throw new Error('The edge registers no Express-style middleware (use a Fastify hook instead)');
  }

  /**
   * Nest's init would replace the edge's own Fastify error handler (registerEndpoints sets it before
   * any route) with its exception layer, which ends in the same renderer through the global
   * ExceptionFilter; Fastify warns about the override (FSTWRN004) on every start. The edge's handler
   * stays the one handler, for the routes registered before Nest's and after.
   */
  override setErrorHandler(): ReturnType<FastifyAdapter['setErrorHandler']> {
    return this.getInstance();
  }
}
