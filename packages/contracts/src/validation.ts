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
  // reportInput: an issue then carries the value it saw, so "missing" and "wrong type" tell apart.
  const result = schema.safeParse(input, { reportInput: true });
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
  if (issue.code === 'invalid_type') {
    if (issue.input === undefined) message = `${param || 'value'} is required`;
    else if (/ is required$/.test(message)) message = `expected ${issue.expected}, got ${describeValue(issue.input)}`;
  }
  if (issue.code === 'unrecognized_keys') message = `unknown field(s): ${issue.keys.join(', ')}`;
  return errors.invalidRequest(param ? `Invalid '${param}': ${message}` : message, param || null);
}

/** What a wrong value was, for a message: its JSON type, without echoing the value itself. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && !Number.isInteger(value)) return 'a fractional number';
  return typeof value === 'object' ? 'object' : typeof value;
}
