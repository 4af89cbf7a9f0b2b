/** GET /openapi.json and GET /docs: the public API reference, open to anyone (no key). */
import type { AnyEndpointSpec } from '@unigate/contracts';
import type { FastifyInstance } from 'fastify';
import { DOCS_CSP, DOCS_HTML } from './docs-page';
import { openApiDocument, type OpenApiOptions } from './openapi';

/** `served`: the task lookups and stored-response routes the edge serves beside the specs (openapi.ts). */
export function registerReference(
  fastify: FastifyInstance,
  specs: readonly AnyEndpointSpec[],
  served: Omit<OpenApiOptions, 'version'>,
  version: string,
): void {
  // The specs are fixed for the process's life: the document is built once.
  const document = JSON.stringify(openApiDocument(specs, { ...served, version }));
  fastify.get('/openapi.json', (_request, reply) => reply.type('application/json; charset=utf-8').send(document));
  fastify.get('/docs', (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', DOCS_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'same-origin')
      .send(DOCS_HTML),
  );
}
