/**
 * RFC 9728 protected-resource metadata, which the MCP authorization spec has clients read after a
 * 401: the MCP endpoint takes a bearer key in the header. Keys are issued by the operator or the
 * sign-up page, not by an OAuth server, so no authorization server is named.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

export const MCP_PATH = '/mcp';
const WELL_KNOWN = '/.well-known/oauth-protected-resource';

const origin = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** The metadata's URL for the MCP endpoint (RFC 9728 §3.1: the resource path after the well-known one). */
export const resourceMetadataUrl = (request: FastifyRequest) => `${origin(request)}${WELL_KNOWN}${MCP_PATH}`;

export function registerProtectedResourceMetadata(fastify: FastifyInstance): void {
  const metadata = async (request: FastifyRequest) => ({
    resource: `${origin(request)}${MCP_PATH}`,
    bearer_methods_supported: ['header'],
    resource_name: 'Unigate MCP server',
    resource_documentation: `${origin(request)}/docs`,
  });
  fastify.get(`${WELL_KNOWN}${MCP_PATH}`, metadata);
  fastify.get(WELL_KNOWN, metadata);
}
