import type { z } from 'zod';
import { errors, GatewayError } from './errors';

/** `['messages', 1, 'content']` → `messages[1].content` */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

/**
 * Parse `input` with `schema`; the first problem becomes a 400 naming the offending field, e.g.
 * "Invalid 'messages[1].tool_call_id': tool_call_id is required for messages with role tool".
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw zodToGatewayError(result.error);
}

export function zodToGatewayError(error: z.ZodError): GatewayError {
  const issue = error.issues[0];
  const param = formatPath(issue.path);
  let message = issue.message;
  if (issue.code === 'invalid_type' && issue.input === undefined) message = `${param || 'value'} is required`;
  if (issue.code === 'unrecognized_keys') message = `unknown field(s): ${issue.keys.join(', ')}`;
  return errors.invalidRequest(param ? `Invalid '${param}': ${message}` : message, param || null);
}
