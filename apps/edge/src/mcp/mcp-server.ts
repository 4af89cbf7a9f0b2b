/**
 * One MCP server for one HTTP request (stateless mode: any edge replica answers any request): the
 * gateway's tools and resources for the caller the route authenticated.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { McpError, ErrorCode, type ServerResult } from '@modelcontextprotocol/sdk/types.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ResourceContext, GatewayResource } from './resources';
import { parseParams } from './invalid-params';
import type { GatewayTool, ToolContext } from './tools';

export interface McpServerDeps {
  version: string;
  tools: readonly GatewayTool[];
  resources: readonly GatewayResource[];
  context: ToolContext & ResourceContext;
}

export function createMcpServer({ version, tools, resources, context }: McpServerDeps): Server {
  const server = new Server(
    { name: 'unigate', title: 'Unigate', version },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        'Unigate: one API key for chat, image, embedding, speech and video models. Tools call the HTTP API and are billed like it; ' +
        'list_models names the models, get_balance tells what is left, and a tool ending in _get looks up a task another tool started ' +
        '(a video). Resources: the model catalogue, the price list and the API reference.',
    },
  );
  onRequest(server, 'tools/list', ListToolsRequestSchema, () => ({ tools: tools.map((t) => t.definition) }));
  onRequest(server, 'tools/call', CallToolRequestSchema, async ({ params }, extra) => {
    const tool = tools.find((t) => t.definition.name === params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
    const token = params._meta?.progressToken;
    const stopReporting = token === undefined ? undefined : reportProgress(extra, token);
    try {
      return await tool.call(params.arguments ?? {}, { ...context, signal: extra.signal });
    } finally {
      stopReporting?.();
    }
  });
  onRequest(server, 'resources/list', ListResourcesRequestSchema, () => ({ resources: resources.map((r) => r.definition) }));
  onRequest(server, 'resources/read', ReadResourceRequestSchema, async ({ params }) => {
    const resource = resources.find((r) => r.definition.uri === params.uri);
    if (!resource) throw new McpError(ErrorCode.InvalidParams, `Unknown resource: ${params.uri}`);
    return { contents: [{ uri: params.uri, mimeType: resource.definition.mimeType, text: await resource.read(context) }] };
  });
  return server;
}

type Extra = Parameters<Parameters<Server['setRequestHandler']>[1]>[1];

/** How often a tool call that asked for progress is told it is still running. */
export const PROGRESS_EVERY_MS = 5_000;

/**
 * A tool call waits on its upstream as long as the HTTP call would (minutes, for a long completion),
 * and clients time a request out (the TypeScript SDK after 60 s) unless progress comes: a caller that
 * sent a `progressToken` gets `notifications/progress` every PROGRESS_EVERY_MS until the answer,
 * counting the seconds waited. Returns the function that stops them.
 */
function reportProgress(extra: Extra, progressToken: string | number): () => void {
  const started = Date.now();
  const timer = setInterval(() => {
    const seconds = Math.round((Date.now() - started) / 1000);
    void extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken, progress: seconds, message: `Still working: ${seconds} s so far.` },
      })
      .catch(() => undefined);
  }, PROGRESS_EVERY_MS);
  return () => clearInterval(timer);
}

/**
 * `server.setRequestHandler`, where a request `schema` refuses (`arguments` that are not an object, a
 * `name` that is not a string) is -32602 Invalid params naming the field. The SDK parses a request
 * against the handler's schema before anything else and answers a refusal with -32603 Internal error
 * and the raw list of zod issues — the answer to a server bug — so the handler is registered on its
 * method alone and the request checked here. Server's own setRequestHandler also wraps `tools/call`
 * in a check of its own that answers the raw issues (as -32602, "Invalid tools/call request: [{…"):
 * Protocol's, which it overrides, registers the handler as given.
 */
function onRequest<S extends z.ZodType>(
  server: Server,
  method: string,
  schema: S,
  handler: (request: z.infer<S>, extra: Extra) => ServerResult | Promise<ServerResult>,
): void {
  Protocol.prototype.setRequestHandler.call(server, z.looseObject({ method: z.literal(method) }), (request, extra) =>
    handler(parseParams(schema, request), extra as Extra),
  );
}
