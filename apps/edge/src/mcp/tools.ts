/**
 * The MCP tools: one per endpoint spec the edge serves (its input schema is the spec's request
 * schema, its call the spec's HTTP request run in-process), one per task lookup it serves (a video
 * submitted through a tool is polled through another), plus the model list and the balance.
 * A spec added to packages/contracts becomes a tool with no code here.
 */
import type { Tool as McpTool, CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { lookupPath, microsToUsd, parseOrError, type AnyEndpointSpec, type BillingPort, type KeyPrincipal } from '@unigate/contracts';
import { lookupParamsJsonSchema, requestJsonSchema, summaryOf, type JsonSchema } from '../reference/endpoint-schemas';
import { FILES_ARGUMENT, FILES_SCHEMA, toFormData } from './file-arguments';
import type { LocalHttp, LocalRequest } from '../http/local-calls';
import { toToolResult } from './tool-result';

/** What a tool call may use: the caller, and the edge's own routes and billing. */
export interface ToolContext {
  principal: KeyPrincipal;
  http: LocalHttp;
  billing: BillingPort;
  /** Aborted when the MCP request is (its client went away). */
  signal?: AbortSignal;
}

export interface GatewayTool {
  definition: McpTool;
  call(args: Record<string, unknown>, ctx: ToolContext): Promise<CallToolResult>;
}

/** A tool's answer comes in one piece: the streaming switches are not offered (nor passed on). */
const STREAM_FIELDS = ['stream', 'stream_options'];

/** `chat.completions` → `chat_completions`: names every MCP client accepts. */
export const toolName = (spec: AnyEndpointSpec) => spec.name.replace(/[^A-Za-z0-9_-]/g, '_');

/** `videos.generations` → `videos_generations_get`: the tool of the spec's task lookup. */
export const lookupToolName = (spec: AnyEndpointSpec) => `${toolName(spec)}_get`;

export function endpointTool(spec: AnyEndpointSpec): GatewayTool {
  const multipart = spec.body?.kind === 'multipart';
  const schema = withoutStreaming(requestJsonSchema(spec));
  return {
    definition: {
      name: toolName(spec),
      title: spec.path,
      description:
        `${summaryOf(spec)} The same call as POST ${spec.path} with the same ${multipart ? 'form fields (its files as base64 in `files`)' : 'body'}, ` +
        'priced and limited like it; answers in one piece (no streaming).' +
        // Formats per model family (images): which fields go with which models, where agents read first.
        (typeof schema.description === 'string' ? ` ${schema.description}` : ''),
      inputSchema: (multipart ? withFiles(schema) : schema) as McpTool['inputSchema'],
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    call: (args, ctx) => {
      const sent = omit(args, STREAM_FIELDS);
      return httpCall(ctx, { method: 'POST', url: spec.path, ...(multipart ? { form: toFormData(sent) } : { body: sent }) });
    },
  };
}

/** `videos_generations_get`: GET `<path>/{id}`, the task a spec's call answered, e.g. to poll it. */
export function lookupTool(spec: AnyEndpointSpec): GatewayTool {
  const lookup = spec.lookup;
  if (!lookup) throw new Error(`${spec.name} answers no task to look up`);
  return {
    definition: {
      name: lookupToolName(spec),
      title: `GET ${lookupPath(spec)}`,
      description: `${lookup.summary} The same call as GET ${lookupPath(spec)} (the id is the one ${toolName(spec)} answered); free.`,
      inputSchema: lookupParamsJsonSchema(spec) as McpTool['inputSchema'],
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    call: async (args, ctx) => {
      const parsed = parseOrError(lookup.params, args);
      if (!parsed.success) return { isError: true, content: [{ type: 'text', text: parsed.error.message }] };
      return httpCall(ctx, { method: 'GET', url: `${spec.path}/${encodeURIComponent(parsed.data.id)}` });
    },
  };
}

const NO_ARGUMENTS = { type: 'object' as const, properties: {} };

export const listModelsTool: GatewayTool = {
  definition: {
    name: 'list_models',
    title: 'GET /v1/models',
    description: 'Lists the models your key may use, with their family and kind (chat, image, embedding, speech, video).',
    inputSchema: NO_ARGUMENTS,
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  call: (_args, ctx) => httpCall(ctx, { method: 'GET', url: '/v1/models' }),
};

export const balanceTool: GatewayTool = {
  definition: {
    name: 'get_balance',
    title: 'Balance',
    description: "Your account's balance, what it has spent and what is held for calls in flight, in USD.",
    inputSchema: NO_ARGUMENTS,
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  async call(_args, ctx) {
    const quota = await ctx.billing.quota(ctx.principal.account_id);
    const body = {
      object: 'balance',
      balance_usd: microsToUsd(quota.balance_micros),
      used_usd: microsToUsd(quota.used_micros),
      reserved_usd: microsToUsd(quota.reserved_micros),
    };
    return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
  },
};

/** Every tool of a deployment serving `specs` and the task lookups of `lookups`. */
export function gatewayTools(specs: readonly AnyEndpointSpec[], lookups: readonly AnyEndpointSpec[]): GatewayTool[] {
  return [...specs.map(endpointTool), ...lookups.map(lookupTool), listModelsTool, balanceTool];
}

async function httpCall(ctx: ToolContext, request: LocalRequest): Promise<CallToolResult> {
  return toToolResult(await ctx.http({ ...request, signal: ctx.signal }));
}

function withoutStreaming(schema: JsonSchema): JsonSchema {
  const properties = schema.properties as Record<string, unknown> | undefined;
  if (!properties) return schema;
  return { ...schema, properties: omit(properties, STREAM_FIELDS) };
}

function withFiles(schema: JsonSchema): JsonSchema {
  const required = (schema.required as string[] | undefined) ?? [];
  return {
    ...schema,
    properties: { ...(schema.properties as object), [FILES_ARGUMENT]: FILES_SCHEMA },
    required: [...required, FILES_ARGUMENT],
  };
}

function omit<T extends Record<string, unknown>>(o: T, keys: readonly string[]): T {
  const copy = { ...o };
  for (const k of keys) delete copy[k];
  return copy;
}
