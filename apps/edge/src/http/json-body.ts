/**
 * Request bodies are JSON whatever Content-Type a client sends (curl's default included); a body
 * that does not parse is a 400 `invalid_json` naming the problem, never a 500.
 */
import { errors } from '@unigate/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export function registerJsonBodyParser(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser(['application/json', 'text/plain']);
  const parse = (_req: FastifyRequest, body: string, done: (err: Error | null, value?: unknown) => void) => {
    if (body.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(body));
    } catch (e) {
      done(errors.invalidJson(e instanceof Error ? e.message : String(e)));
    }
  };
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, parse);
  fastify.addContentTypeParser('*', { parseAs: 'string' }, parse);
}
