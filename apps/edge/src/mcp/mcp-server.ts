/**
 * One MCP server for one HTTP request (stateless mode: any edge replica answers any request): the
 * gateway's tools and resources for the caller the route authenticated.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ResourceContext, GatewayResource } from './resources';
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
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map((t) => t.definition) }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }, { signal }) => {
    const tool = tools.find((t) => t.definition.name === params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
    return tool.call(params.arguments ?? {}, { ...context, signal });
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: resources.map((r) => r.definition) }));
  server.setRequestHandler(ReadResourceRequestSchema, async ({ params }) => {
    const resource = resources.find((r) => r.definition.uri === params.uri);
    if (!resource) throw new McpError(ErrorCode.InvalidParams, `Unknown resource: ${params.uri}`);
    return { contents: [{ uri: params.uri, mimeType: resource.definition.mimeType, text: await resource.read(context) }] };
  });
  return server;
}
