/** The API reference as markdown, generated from the endpoint specs (the MCP `reference` resource). */
import { lookupPath, responsesSpec, type AnyEndpointSpec } from '@unigate/contracts';
import { lookupToolName, toolName } from '../mcp/tools';
import { ACCOUNT_ROUTES, routeParameters } from './account-routes';
import { requestJsonSchema, summaryOf } from './endpoint-schemas';

const SHAPES: Record<string, string> = {
  A: 'Shape A `{"code", "message", "request_id"}`',
  B: 'Shape B `{"error": {"message", "type", "code", "param"}}`',
  anthropic: 'Anthropic\'s `{"type": "error", "error": {"type", "message"}, "request_id"}`',
};

/** `lookups`: the specs whose task lookup (GET `<path>/{id}`) is served; `storedResponses`: whether GET and DELETE /v1/responses/{id} are. */
export function apiReferenceMarkdown(
  specs: readonly AnyEndpointSpec[],
  lookups: readonly AnyEndpointSpec[],
  storedResponses = false,
): string {
  return [
    '# Unigate API reference',
    '',
    'Generated from the endpoint specs in `packages/contracts`; `GET /openapi.json` is the same reference as OpenAPI 3.1.',
    '',
    '## Authentication',
    '',
    'Every call takes `Authorization: Bearer sk-...` (the messages endpoints and the model list also take `x-api-key`). The MCP server at `/mcp` takes the same header.',
    '',
    '## Errors',
    '',
    `Each endpoint answers errors in one shape, named below: ${Object.values(SHAPES).join('; ')}. A 429 is always Shape A (with \`Retry-After\`). Every error carries \`x-should-retry\`.`,
    '',
    '## Endpoints',
    '',
    ...specs.flatMap((spec) => [...endpointSection(spec), ...(lookups.includes(spec) ? lookupSection(spec) : [])]),
    ...(storedResponses ? storedResponseSections() : []),
    '## Account',
    '',
    ...ACCOUNT_ROUTES.flatMap((r) => {
      const params = routeParameters(r);
      return [
        `### GET ${r.path}`,
        '',
        r.summary,
        ...(params.length > 0 ? ['', ...params.map((q) => `- \`${q.name}\`: ${q.description}`)] : []),
        '',
      ];
    }),
  ].join('\n');
}

function endpointSection(spec: AnyEndpointSpec): string[] {
  const answer = spec.binary ? 'raw bytes (streamed)' : spec.sse ? 'JSON, or Server-Sent Events with `"stream": true`' : 'JSON';
  return [
    `### POST ${spec.path}`,
    '',
    summaryOf(spec),
    '',
    `- Models of kind: ${spec.kinds.join(', ')}`,
    `- Billed in: ${spec.units.length > 0 ? spec.units.join(', ') : 'not billed'}`,
    `- Body: ${spec.body?.kind === 'multipart' ? 'multipart/form-data' : 'application/json'}; answer: ${answer}; success status ${spec.successStatus ?? 200}`,
    `- Errors: ${SHAPES[spec.errorShape()]}`,
    `- MCP tool: \`${toolName(spec)}\``,
    '',
    'Request schema:',
    '',
    '```json',
    JSON.stringify(requestJsonSchema(spec), null, 1),
    '```',
    '',
  ];
}

function lookupSection(spec: AnyEndpointSpec): string[] {
  return [
    `### GET ${lookupPath(spec)}`,
    '',
    spec.lookup!.summary,
    '',
    `- Answer: JSON, the same schema as POST ${spec.path}'s; free`,
    `- Errors: ${SHAPES[spec.errorShape()]}; 404 for an id your account does not have`,
    `- MCP tool: \`${lookupToolName(spec)}\``,
    '',
  ];
}

function storedResponseSections(): string[] {
  const path = lookupPath(responsesSpec);
  return [
    `### GET ${path}`,
    '',
    "A response created with `store` (the default), as it was answered: the same schema as POST /v1/responses's; free. `stream=true` is a 400.",
    '',
    `### DELETE ${path}`,
    '',
    'Deletes a stored response: `{"id", "object": "response", "deleted": true}`; the responses that continued it can no longer be continued. Free.',
    '',
    `### GET ${path}/input_items`,
    '',
    'The items a stored response was answered from (its conversation up to its own output), a page at a time: `{"object": "list", "data", "first_id", "last_id", "has_more"}`; query `after`, `before` (item ids), `limit` (1–100, default 20), `order` (`asc` or `desc`, the default). Free.',
    '',
    `- Errors: ${SHAPES.B}; 404 for an id your account does not have stored`,
    '',
  ];
}
