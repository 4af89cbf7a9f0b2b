/**
 * Request bodies are JSON whatever Content-Type a client sends (curl's default included); a body
 * that does not parse, or nests deeper than MAX_JSON_DEPTH, is a 400 `invalid_json` naming the
 * problem, never a 500.
 */
import { errors, jsonDepthExceeds, MAX_JSON_DEPTH } from '@unigate/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export function registerJsonBodyParser(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser(['application/json', 'text/plain']);
  const parse = (_req: FastifyRequest, body: string, done: (err: Error | null, value?: unknown) => void) => {
    if (body.trim() === '') return done(null, undefined);
    if (jsonDepthExceeds(body)) return done(errors.invalidJson(`nesting is deeper than ${MAX_JSON_DEPTH} levels`));
    try {
      done(null, JSON.parse(body));
    } catch (e) {
      done(errors.invalidJson(e instanceof Error ? e.message : String(e)));
    }
  };
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, parse);
  fastify.addContentTypeParser('*', { parseAs: 'string' }, parse);
}
