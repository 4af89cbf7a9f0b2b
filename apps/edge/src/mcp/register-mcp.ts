/**
 * The MCP server at /mcp (streamable HTTP transport), stateless: every POST carries its own
 * JSON-RPC exchange and is answered by a fresh server, so any edge replica serves any request and
 * nothing is kept between them. GET (a server-initiated stream) and DELETE (ending a session) have
 * nothing to do without sessions: 405, as the transport spec allows.
 *
 * The caller authenticates with the same API key as the HTTP API: 401 without one, pointing at the
 * protected-resource metadata (MCP authorization spec).
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { GatewayError, type AnyEndpointSpec, type BillingPort, type CatalogPort } from '@unigate/contracts';
import type { Logger } from '@unigate/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator } from '../auth/authenticator';
import { replyWithError, sendError, toGatewayError } from '../http/error-renderer';
import { EDGE_VERSION } from '../version';
import { LocalCalls } from '../http/local-calls';
import { createMcpServer } from './mcp-server';
import { MCP_PATH, registerProtectedResourceMetadata, resourceMetadataUrl } from './protected-resource';
import { GATEWAY_RESOURCES } from './resources';
import { gatewayTools } from './tools';

export interface McpDeps {
  auth: Authenticator;
  billing: BillingPort;
  catalog: CatalogPort;
  /** The endpoint specs the edge serves: one tool each. */
  specs: readonly AnyEndpointSpec[];
  /** The specs whose task lookup (GET `<path>/{id}`) the edge serves: one tool each (default none). */
  lookups?: readonly AnyEndpointSpec[];
  /** Whether the edge serves GET and DELETE /v1/responses/{id} (for the reference resource). */
  storedResponses?: boolean;
  logger: Logger;
  /** The edge's in-process requests, when it makes them for more than MCP (default: MCP's own). */
  local?: LocalCalls;
}

export function registerMcp(fastify: FastifyInstance, deps: McpDeps): void {
  const lookups = deps.lookups ?? [];
  const tools = gatewayTools(deps.specs, lookups);
  const local = deps.local ?? new LocalCalls(fastify);
  registerProtectedResourceMetadata(fastify);

  const authenticate = async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      request.principal = await deps.auth.authenticate(request);
    } catch (err) {
      const failure = toGatewayError(err, deps.logger, String(request.id));
      if (failure.status === 401) void reply.header('www-authenticate', `Bearer resource_metadata="${resourceMetadataUrl(request)}"`);
      return sendError(reply, request, failure, 'B');
    }
  };

  // A body that is not JSON is JSON-RPC's parse error, worded as the SDK's transport words it when it
  // reads the body itself (here the gateway's parser reads it first); other failures keep the gateway's shape.
  const errorHandler = (err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    if (!(GatewayError.is(err) && err.code === 'invalid_json')) return replyWithError(err, request, reply, deps.logger);
    return reply
      .status(400)
      .send({ jsonrpc: '2.0', error: { code: ErrorCode.ParseError, message: 'Parse error: Invalid JSON', data: err.message }, id: null });
  };

  fastify.post(MCP_PATH, { onRequest: authenticate, errorHandler }, async (request, reply) => {
    const server = createMcpServer({
      version: EDGE_VERSION,
      tools,
      resources: GATEWAY_RESOURCES,
      context: {
        principal: request.principal!,
        // A tool call's endpoint request counts in this request's body share: one request, not two.
        http: local.as(request.headers.authorization!, { protocol: request.protocol, host: request.host }, request.bodyTicket),
        billing: deps.billing,
        catalog: deps.catalog,
        specs: deps.specs,
        lookups,
        storedResponses: deps.storedResponses ?? false,
      },
    });
    // Plain JSON answers: each request is one exchange, and proxies pass JSON more readily than SSE. A
    // tool call that asks for progress is answered as a stream instead, its notifications before the result.
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !asksForProgress(request.body),
    });
    // The transport writes the answer itself; headers Fastify would have added go on the raw reply.
    reply.hijack();
    reply.raw.setHeader('x-request-id', String(request.id));
    // Closing the server aborts a tool call still running: a client that left stops its upstream call.
    reply.raw.once('close', () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });

  const noSessions = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .status(405)
      .header('allow', 'POST')
      .send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; send POST.' }, id: null });
  fastify.get(MCP_PATH, { onRequest: authenticate }, noSessions);
  fastify.delete(MCP_PATH, { onRequest: authenticate }, noSessions);
}

/** A single tools/call carrying `_meta.progressToken` (a client that wants to hear it is still running). */
function asksForProgress(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const { method, params } = body as { method?: unknown; params?: { _meta?: { progressToken?: unknown } } };
  const token = params?._meta?.progressToken;
  return method === 'tools/call' && (typeof token === 'string' || typeof token === 'number');
}
