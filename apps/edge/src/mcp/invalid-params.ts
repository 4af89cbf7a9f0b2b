/**
 * MCP request parts checked against a schema: a refusal is JSON-RPC -32602 Invalid params, its message
 * the one every HTTP 400 of the gateway gives (`zodToGatewayError`: "Invalid 'params.uri': expected
 * string, got number").
 */
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { parseOrError } from '@unigate/contracts';
import type { z } from 'zod';

export function parseParams<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = parseOrError(schema, value);
  if (parsed.success) return parsed.data;
  throw new McpError(ErrorCode.InvalidParams, parsed.error.message);
}
