/**
 * JSON Schemas (2020-12) of the endpoint specs, converted from their zod schemas in
 * packages/contracts: the one source of the MCP tools' input schemas, the OpenAPI document and the
 * markdown reference, so none of them can drift from what the pipeline validates.
 */
import type { AnyEndpointSpec } from '@unigate/contracts';
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

const requests = new WeakMap<AnyEndpointSpec, JsonSchema>();
const responses = new WeakMap<AnyEndpointSpec, JsonSchema>();

/** What a client may send: the schema as input (defaults optional, transforms' inputs). */
export function requestJsonSchema(spec: AnyEndpointSpec): JsonSchema {
  let schema = requests.get(spec);
  if (!schema) requests.set(spec, (schema = convert(spec.request, 'input')));
  return schema;
}

/** What a successful JSON answer holds. */
export function responseJsonSchema(spec: AnyEndpointSpec): JsonSchema {
  let schema = responses.get(spec);
  if (!schema) responses.set(spec, (schema = convert(spec.response, 'output')));
  return schema;
}

/** One stream item, for specs that stream. */
export function eventJsonSchema(spec: AnyEndpointSpec): JsonSchema | undefined {
  return spec.event && convert(spec.event, 'output');
}

/** The path parameters of the spec's task lookup (GET `<path>/{id}`), for specs whose answer is a task. */
export function lookupParamsJsonSchema(spec: AnyEndpointSpec): JsonSchema {
  if (!spec.lookup) throw new Error(`${spec.name} answers no task to look up`);
  return convert(spec.lookup.params, 'input');
}

/** The spec's one-line summary, or one said from its path and model kinds. */
export function summaryOf(spec: AnyEndpointSpec): string {
  return spec.summary ?? `POST ${spec.path} on a model of kind ${spec.kinds.join(' or ')}.`;
}

/** A schema's JSON Schema as clients send it (`input`: the MCP tools' extra arguments), or as answered (`output`). */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  return convert(schema, io);
}

function convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  // Refinements and transforms have no JSON Schema form: they stay the pipeline's to check.
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  return rest;
}
