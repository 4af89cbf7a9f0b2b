/**
 * Nest's Fastify adapter without @fastify/middie. The edge has no Express-style middleware, and
 * middie, which the stock adapter registers on init, runs a hook on every request regardless.
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
}
