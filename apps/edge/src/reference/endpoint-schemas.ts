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
  if (!schema) requests.set(spec, (schema = spec.requestFormats ? mergedFormats(spec.requestFormats) : convert(spec.request, 'input')));
  return schema;
}

/**
 * One object schema for an endpoint whose model families each have a request format: every field of
 * any format, said for which families; a field the families shape differently is `anyOf` their
 * shapes. Not a top-level `anyOf` of the formats: tool schemas must be one object (Anthropic's API
 * refuses an `anyOf` at the top of a tool's `input_schema`, and Claude Code passes MCP tools on).
 */
function mergedFormats(formats: NonNullable<AnyEndpointSpec['requestFormats']>): JsonSchema {
  // field → its shapes (as JSON text) → the families that give it that shape
  const fields = new Map<string, Map<string, { shape: JsonSchema; families: string[] }>>();
  let required: string[] | undefined;
  for (const [family, { schema }] of Object.entries(formats)) {
    const json = convert(schema, 'input') as { properties: Record<string, JsonSchema>; required?: string[] };
    const mine = json.required ?? [];
    required = required === undefined ? mine : required.filter((name) => mine.includes(name));
    for (const [name, shape] of Object.entries(json.properties)) {
      const shapes = fields.get(name) ?? new Map<string, { shape: JsonSchema; families: string[] }>();
      const key = JSON.stringify(shape);
      shapes.set(key, { shape, families: [...(shapes.get(key)?.families ?? []), family] });
      fields.set(name, shapes);
    }
  }
  const all = Object.keys(formats).length;
  const only = (families: string[]) => `${families.join(' and ')} ${families.length > 1 ? 'families' : 'family'}`;
  const properties = Object.fromEntries(
    [...fields].map(([name, shapes]) => {
      const families = [...shapes.values()].flatMap((s) => s.families);
      const shape =
        shapes.size === 1
          ? [...shapes.values()][0].shape
          : { anyOf: [...shapes.values()].map((s) => ({ ...s.shape, description: only(s.families) })) };
      return [name, families.length === all ? shape : { ...shape, description: `${only(families)} only` }];
    }),
  );
  const description =
    "The request format is the model family's: " +
    Object.entries(formats)
      .map(([family, { models, schema }]) => `${family} (${models}): ${Object.keys(schema.shape).join(', ')}`)
      .join('; ') +
    '.';
  return { type: 'object', description, properties, required: required ?? [] };
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
