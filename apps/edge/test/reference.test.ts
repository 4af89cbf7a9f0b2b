/**
 * GET /openapi.json and GET /docs on an edge built in-process (its ports are never called: the
 * reference needs no service): the document is valid OpenAPI 3.1, lists every endpoint spec with its
 * contract schema, and covers every public route the edge serves — read from Fastify's own route table.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { createHash } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ENDPOINTS, lookupPath, videoGenerationsSpec } from '@unigate/contracts';
import { createLogger } from '@unigate/platform';
import type { FastifyInstance } from 'fastify';
import { createEdgeApp } from '../src/create-edge-app';
import { requestJsonSchema } from '../src/reference/endpoint-schemas';
import type { Loose } from './support/use-stack';

/** The sign-up and dashboard pages (HTML forms for people, docs/dashboard.md), not the JSON API. */
const WEB_PAGES = /^\/(|signup\/?|login\/?|logout|web\.css|favicon\.ico|dashboard\/?|dashboard\/keys(\/.*)?)$/;
/** Operator and infrastructure routes, and the reference and MCP routes themselves: not the public HTTP API. */
const NOT_PUBLIC_API = [
  /^\/admin\//,
  /^\/health\//,
  /^\/metrics$/,
  /^\/mcp$/,
  /^\/\.well-known\//,
  /^\/openapi\.json$/,
  /^\/docs$/,
  WEB_PAGES,
  // OPTIONS *: browsers' CORS preflights (cors.ts), no operation of the API.
  /^\*$/,
];
/** `METHOD /path` of every route, read from Fastify's printed route tree (HEAD is implied by GET). */
function servedRoutes(fastify: FastifyInstance): string[] {
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of fastify.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:[│ ] {3})*)[├└]── (\S+) \((.+)\)$/.exec(line);
    if (!m) continue;
    const depth = m[1].length / 4;
    stack.length = depth;
    stack.push(m[2]);
    // `:id` in Fastify's syntax is `{id}` in OpenAPI's.
    const path = stack.join('').replace(/:(\w+)/g, '{$1}');
    for (const method of m[3].split(', ')) if (method !== 'HEAD') routes.push(`${method} ${path}`);
  }
  return routes;
}

describe('API reference: /openapi.json and /docs', () => {
  let app: NestFastifyApplication;
  let fastify: FastifyInstance;
  let doc: Loose;

  beforeAll(async () => {
    app = (await createEdgeApp({
      // With the video task and stored-response ports: their routes are served, so they must be documented.
      ports: {
        billing: {} as never,
        catalog: {} as never,
        services: { chat: {} as never, media: {} as never, video: {} as never },
        videoTasks: {} as never,
        storedResponses: {} as never,
      },
      logger: createLogger('reference-test'),
      instanceId: 'reference-test',
      reservations: { checkReady: async () => undefined } as never,
      adminToken: 'x'.repeat(32),
    })) as NestFastifyApplication;
    await app.init();
    fastify = app.getHttpAdapter().getInstance();
    const res = await fastify.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    doc = res.json();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    // The parser dereferences in place: it gets a copy.
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeDefined();
  });

  it('has one operation per endpoint spec, with the spec request schema, answers and error shapes', () => {
    for (const spec of ENDPOINTS) {
      const op = doc.paths[spec.path]?.post;
      expect(op).toBeDefined();
      const body = op.requestBody.content[spec.body?.kind === 'multipart' ? 'multipart/form-data' : 'application/json'];
      const ref: string = body.schema.$ref;
      expect(doc.components.schemas[ref.split('/').pop()!]).toEqual(requestJsonSchema(spec));
      expect(body.example).toEqual(spec.example);
      expect(op.responses).toHaveProperty(String(spec.successStatus ?? 200));
      expect(op.responses['401'].content['application/json'].schema.$ref).toMatch(/Error/);
      expect(op.responses['429'].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorShapeA');
    }
    expect(doc.paths['/v1/messages'].post.responses['400'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/ErrorAnthropic',
    );
    expect(doc.paths['/v1/chat/completions'].post.responses['402'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/ErrorShapeB',
    );
    // The routes that take Anthropic's x-api-key say so; the others take the bearer key alone.
    const xApiKey = [{ bearer: [] }, { xApiKey: [] }];
    expect(doc.paths['/v1/messages'].post.security).toEqual(xApiKey);
    expect(doc.paths['/v1/models'].get.security).toEqual(xApiKey);
    expect(doc.paths['/v1/models/{model}'].get.security).toEqual(xApiKey);
    expect(doc.paths['/v1/chat/completions'].post.security).toBeUndefined();
    expect(doc.paths['/v1/dashboard/billing/subscription'].get.security).toBeUndefined();
  });

  it('documents the video task lookup: its path parameter, the same task schema as the submission answers, errors in Shape A', () => {
    const op = doc.paths[lookupPath(videoGenerationsSpec)]?.get;
    expect(op).toBeDefined();
    expect(op.operationId).toBe('videos_generations_get');
    expect(op.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 1, maxLength: 100 } }]);
    const submitted = doc.paths[videoGenerationsSpec.path].post.responses['202'].content['application/json'].schema;
    expect(op.responses['200'].content['application/json'].schema).toEqual(submitted);
    expect(doc.components.schemas[submitted.$ref.split('/').pop()].properties.status.enum).toContain('succeeded');
    for (const status of ['401', '404']) {
      expect(op.responses[status].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorShapeA');
    }
    // A too-long id is refused while routing, in the default shape; there is no other 400.
    expect(op.responses['414'].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorShapeB');
    expect(op.responses).not.toHaveProperty('400');
  });

  it('documents reading back and deleting a stored response, in Shape B, the answer in the schema POST /v1/responses answers', () => {
    const item = doc.paths['/v1/responses/{id}'];
    expect(Object.keys(item).sort()).toEqual(['delete', 'get']);
    const created = doc.paths['/v1/responses'].post.responses['200'].content['application/json'].schema;
    expect(item.get.responses['200'].content['application/json'].schema).toEqual(created);
    expect(item.delete.responses['200'].content['application/json'].schema.properties.deleted).toEqual({ const: true });
    for (const op of [item.get, item.delete]) {
      expect(op.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }]);
      for (const status of ['401', '404']) {
        expect(op.responses[status].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorShapeB');
      }
    }
  });

  it('documents the input items of a stored response: its query parameters and errors in Shape B', () => {
    const op = doc.paths['/v1/responses/{id}/input_items']?.get;
    expect(op.operationId).toBe('responses_input_items_list');
    expect(op.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual([
      'path:id',
      'query:after',
      'query:before',
      'query:limit',
      'query:order',
    ]);
    for (const status of ['400', '401', '404']) {
      expect(op.responses[status].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorShapeB');
    }
  });

  it('covers every public route the edge serves, and documents none it does not serve', () => {
    const served = servedRoutes(fastify);
    expect(served).toContain('POST /v1/chat/completions');
    const publicRoutes = served.filter((r) => !NOT_PUBLIC_API.some((re) => re.test(r.split(' ')[1])));
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item as object).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(publicRoutes.sort());
  });

  it('serves /docs: one static page that renders the document, its inline script and style allowed by hash only', async () => {
    const res = await fastify.inject({ method: 'GET', url: '/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const html = res.body;
    expect(html).toContain("fetch('/openapi.json')");
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
    const csp = String(res.headers['content-security-policy']);
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    expect(csp).toContain(`script-src ${hash(/<script>([\s\S]*)<\/script>/.exec(html)![1])}`);
    expect(csp).toContain(`style-src ${hash(/<style>([\s\S]*)<\/style>/.exec(html)![1])}`);
    expect(csp).toContain("default-src 'none'");
  });
});
