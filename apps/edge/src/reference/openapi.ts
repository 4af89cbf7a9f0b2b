/**
 * The OpenAPI 3.1 document of the public API (GET /openapi.json), generated from the endpoint specs
 * the edge serves and the account routes: one path per spec with its request, answer, stream item
 * and error schemas. OpenAPI 3.1 schemas are JSON Schema 2020-12, so zod's conversion goes in as is,
 * its local `$defs` hoisted into components.
 */
import { inputItemListSchema, inputItemsQuerySchema, lookupPath, responsesSpec, type AnyEndpointSpec } from '@unigate/contracts';
import { ACCOUNT_ROUTES, routeParameters, type AccountRoute } from './account-routes';
import {
  eventJsonSchema,
  jsonSchemaOf,
  lookupParamsJsonSchema,
  requestJsonSchema,
  responseJsonSchema,
  summaryOf,
  type JsonSchema,
} from './endpoint-schemas';
import { ERROR_SCHEMAS, errorSchemaName } from './error-schemas';

/** An operation that takes the key as a bearer token or as Anthropic's x-api-key. */
const BEARER_OR_X_API_KEY = [{ bearer: [] }, { xApiKey: [] }];

export interface OpenApiOptions {
  version: string;
  /** The specs whose task lookup (GET `<path>/{id}`) this edge serves. */
  lookups: readonly AnyEndpointSpec[];
  /** Whether this edge serves GET and DELETE /v1/responses/{id} (stored responses). */
  storedResponses?: boolean;
}

export function openApiDocument(specs: readonly AnyEndpointSpec[], { version, lookups, storedResponses }: OpenApiOptions): JsonSchema {
  const components = new Components();
  const paths: Record<string, unknown> = {};
  for (const spec of specs) paths[spec.path] = { post: endpointOperation(spec, components) };
  for (const spec of lookups) paths[lookupPath(spec)] = { get: lookupOperation(spec, components) };
  if (storedResponses) {
    paths[lookupPath(responsesSpec)] = storedResponseOperations(components);
    paths[`${lookupPath(responsesSpec)}/input_items`] = { get: inputItemsOperation() };
  }
  for (const route of ACCOUNT_ROUTES) {
    paths[route.path] = { get: accountOperation(route, route.path) };
    if (route.alias) paths[route.alias] = { get: accountOperation(route, route.alias) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Unigate API',
      version,
      description:
        'One base URL and one API key for chat, image, embedding, speech and video models. The same operations are MCP tools at /mcp.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer sk-...' },
        xApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: "Anthropic's header (messages endpoints, model list)" },
      },
      schemas: { ...ERROR_SCHEMAS, ...components.schemas },
    },
  };
}

function endpointOperation(spec: AnyEndpointSpec, components: Components) {
  const base = pascal(spec.name);
  const request = components.add(`${base}Request`, requestJsonSchema(spec));
  const event = spec.sse && eventJsonSchema(spec);
  const eventRef = event && components.add(`${base}Event`, event);
  const success: Record<string, unknown> = spec.binary
    ? { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } }
    : {
        'application/json': { schema: components.add(`${base}Response`, responseJsonSchema(spec)) },
        ...(eventRef && {
          'text/event-stream': {
            schema: { type: 'string', description: `With "stream": true: Server-Sent Events, each data line one ${base}Event.` },
          },
        }),
      };
  const shape = spec.errorShape();
  return {
    operationId: spec.name.replace(/\./g, '_'),
    summary: summaryOf(spec),
    description: `Models of kind ${spec.kinds.join(', ')}; billed in ${spec.units.join(', ') || 'nothing (free)'}.`,
    ...(spec.acceptsXApiKey && { security: BEARER_OR_X_API_KEY }),
    requestBody: {
      required: true,
      content: {
        [spec.body?.kind === 'multipart' ? 'multipart/form-data' : 'application/json']: { schema: request, example: spec.example },
      },
    },
    responses: {
      [String(spec.successStatus ?? 200)]: { description: 'The answer', content: success },
      ...errorResponses(shape, ['400', '401', ...(spec.units.length > 0 ? ['402'] : []), '403', '404', '413']),
      '429': errorResponse('Rate or concurrency limit (always Shape A, with Retry-After)', 'A'),
      '5XX': errorResponse('Gateway or upstream failure', shape),
    },
  };
}

/** GET `<path>/{id}`: the task an endpoint answered, in the same schema as that answer. */
function lookupOperation(spec: AnyEndpointSpec, components: Components) {
  const shape = spec.errorShape();
  const id = (lookupParamsJsonSchema(spec).properties as Record<string, JsonSchema>).id;
  return {
    operationId: `${spec.name.replace(/\./g, '_')}_get`,
    summary: spec.lookup!.summary,
    description: 'Free. Only the tasks of your own account are found.',
    parameters: [{ name: 'id', in: 'path', required: true, schema: id }],
    responses: {
      '200': {
        description: 'The task',
        content: { 'application/json': { schema: components.add(`${pascal(spec.name)}Response`, responseJsonSchema(spec)) } },
      },
      ...errorResponses(shape, ['401']),
      '404': errorResponse('No task with this id in your account', shape),
      // Refused while routing, before the family is known: the default shape.
      '414': errorResponse('An id longer than the parameter allows', 'B'),
      '5XX': errorResponse('Gateway or service failure', shape),
    },
  };
}

/** The stored-response routes' path parameter and errors (Shape B, the Responses endpoint's). */
const RESPONSE_ID = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const storedResponseErrors = () => ({
  ...errorResponses('B', ['401']),
  '404': errorResponse('No stored response with this id in your account', 'B'),
  '5XX': errorResponse('Gateway or service failure', 'B'),
});

/** GET and DELETE /v1/responses/{id}: a stored response as it was answered, and its deletion. */
function storedResponseOperations(components: Components) {
  return {
    get: {
      operationId: 'responses_get',
      summary: 'A response created with `store` (the default), as it was answered. Free.',
      parameters: [RESPONSE_ID],
      responses: {
        '200': {
          description: 'The response',
          content: { 'application/json': { schema: components.add('ResponsesResponse', responseJsonSchema(responsesSpec)) } },
        },
        '400': errorResponse('`stream=true`: a stored response is not replayed as events', 'B'),
        ...storedResponseErrors(),
      },
    },
    delete: {
      operationId: 'responses_delete',
      summary: 'Deletes a stored response; the responses that continued it can no longer be continued. Free.',
      parameters: [RESPONSE_ID],
      responses: {
        '200': {
          description: 'Deleted',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['id', 'object', 'deleted'],
                properties: { id: { type: 'string' }, object: { const: 'response' }, deleted: { const: true } },
              },
            },
          },
        },
        ...storedResponseErrors(),
      },
    },
  };
}

/**
 * GET /v1/responses/{id}/input_items: the items a stored response was answered from, a page at a time.
 * Its query and its answer are the contracts' schemas, the ones the route checks and the service answers in.
 */
function inputItemsOperation() {
  const query = jsonSchemaOf(inputItemsQuerySchema).properties as Record<string, JsonSchema>;
  return {
    operationId: 'responses_input_items_list',
    summary: 'The items a stored response was answered from (its conversation up to its own output), a page at a time. Free.',
    parameters: [
      RESPONSE_ID,
      ...Object.entries(query).map(([name, schema]) => ({ name, in: 'query', required: false, schema, description: schema.description })),
    ],
    responses: {
      '200': { description: 'A page of items', content: { 'application/json': { schema: jsonSchemaOf(inputItemListSchema, 'output') } } },
      '400': errorResponse('A bad query value, or a cursor that names no item of the response', 'B'),
      ...storedResponseErrors(),
    },
  };
}

function accountOperation(route: AccountRoute, path: string) {
  const parameters = routeParameters(route);
  return {
    operationId: path.replace(/^\//, '').replace(/\W+/g, '_'),
    summary: route.summary,
    ...(route.acceptsXApiKey && { security: BEARER_OR_X_API_KEY }),
    ...(parameters.length > 0 && {
      // A path parameter is always required; the query ones are optional.
      parameters: parameters.map((p) => ({ ...p, required: p.in === 'path', schema: { type: 'string' } })),
    }),
    responses: {
      '200': { description: 'The answer', content: { 'application/json': { schema: route.response } } },
      ...errorResponses('B', ['400', '401', ...(route.errors ?? [])]),
    },
  };
}

const ERROR_TEXT: Record<string, string> = {
  '400': 'Invalid request (names the field)',
  '401': 'Missing or invalid API key',
  '402': 'Balance too low for the worst case of the call',
  '403': 'The key may not use this model',
  '404': 'Unknown model',
  '413': 'Body too large',
};

function errorResponses(shape: Parameters<typeof errorSchemaName>[0], statuses: string[]) {
  return Object.fromEntries(statuses.map((s) => [s, errorResponse(ERROR_TEXT[s], shape)]));
}

function errorResponse(description: string, shape: Parameters<typeof errorSchemaName>[0]) {
  return { description, content: { 'application/json': { schema: { $ref: `#/components/schemas/${errorSchemaName(shape)}` } } } };
}

/** Named schemas, with each one's local `$defs` (and `#` self-references) pointed into components. */
class Components {
  readonly schemas: Record<string, JsonSchema> = {};

  add(name: string, schema: JsonSchema): { $ref: string } {
    const { $defs, ...root } = schema as JsonSchema & { $defs?: Record<string, JsonSchema> };
    const ref = (to: string) => `#/components/schemas/${to}`;
    const rewrite = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(rewrite);
      if (!node || typeof node !== 'object') return node;
      return Object.fromEntries(
        Object.entries(node).map(([k, v]) => {
          if (k !== '$ref' || typeof v !== 'string') return [k, rewrite(v)];
          if (v === '#') return [k, ref(name)];
          return [k, v.startsWith('#/$defs/') ? ref(`${name}_${v.slice('#/$defs/'.length)}`) : v];
        }),
      );
    };
    this.schemas[name] = rewrite(root) as JsonSchema;
    for (const [def, s] of Object.entries($defs ?? {})) this.schemas[`${name}_${def}`] = rewrite(s) as JsonSchema;
    return { $ref: ref(name) };
  }
}

const pascal = (name: string) =>
  name
    .split(/[^A-Za-z0-9]+/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
