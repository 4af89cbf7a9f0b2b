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

type Issue = z.core.$ZodIssue;

/**
 * A union failure says only "invalid input" at the union's path. When one branch got past the type
 * check (e.g. content was an array, but a block in it was wrong), that branch's issue is the useful one.
 */
function mostSpecific(issue: Issue): Issue {
  if (issue.code !== 'invalid_union' || !('errors' in issue) || issue.errors.length === 0) return issue;
  const branch = issue.errors.find((b) => b.length > 0 && !(b[0].code === 'invalid_type' && b[0].path.length === 0));
  if (!branch) return issue;
  const inner = mostSpecific(branch[0]);
  return { ...inner, path: [...issue.path, ...inner.path] } as Issue;
}

export function zodToGatewayError(error: z.ZodError): GatewayError {
  const original = error.issues[0];
  const issue = mostSpecific(original);
  const param = formatPath(issue.path);
  let message = issue === original || issue.code !== 'invalid_type' ? issue.message : original.message;
  if (issue.code === 'invalid_type' && issue.input === undefined) message = `${param || 'value'} is required`;
  if (issue.code === 'unrecognized_keys') message = `unknown field(s): ${issue.keys.join(', ')}`;
  return errors.invalidRequest(param ? `Invalid '${param}': ${message}` : message, param || null);
}
