/**
 * MCP request parts checked against a schema: a refusal is JSON-RPC -32602 Invalid params, its message
 * the one every HTTP 400 of the gateway gives (`zodToGatewayError`: "Invalid 'params.uri': expected
 * string, got number").
 */
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { zodToGatewayError } from '@unigate/contracts';
import type { z } from 'zod';

export function parseParams<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  // reportInput: the issue carries what it saw, so a wrong type is not reported as missing.
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return parsed.data;
  throw new McpError(ErrorCode.InvalidParams, zodToGatewayError(parsed.error).message);
}
