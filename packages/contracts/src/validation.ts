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
  const result = parseOrError(schema, input);
  if (result.success) return result.data;
  throw result.error;
}

/**
 * `input` parsed with `schema`, or its first problem as the 400 parseOrThrow throws. Every parse whose
 * refusal reaches a client goes through here: reportInput makes each issue carry the value it saw,
 * without which zodToGatewayError reads every wrong type as "… is required".
 */
export function parseOrError<S extends z.ZodType>(
  schema: S,
  input: unknown,
): { success: true; data: z.infer<S> } | { success: false; error: GatewayError } {
  const result = schema.safeParse(input, { reportInput: true });
  return result.success ? { success: true, data: result.data } : { success: false, error: zodToGatewayError(result.error) };
}

type Issue = z.core.$ZodIssue;

/** The message of an empty (or whitespace-only) request body, for the request schemas' root object. */
export const EMPTY_BODY_MESSAGE = 'The request body is empty: it must be a JSON object.';

/** The `error` option of a request schema's root object: an empty body is named as such. */
export const requestBodyError = (iss: { input?: unknown }) => (iss.input === undefined ? EMPTY_BODY_MESSAGE : undefined);

/** zod's own wording ("Invalid input: expected string, received number"), which says less than ours. */
const isZodDefault = (message: string) => /^Invalid (input|option)\b/.test(message);

/** The JSON kind a union branch wanted, when it refused the input for being of another kind. */
function refusedKind(issue: Issue): string | undefined {
  if (issue.path.length > 0) return undefined;
  if (issue.code === 'invalid_type') return issue.expected;
  // One of some literals ("auto", "none"...), given a value that is not even of their type.
  if (issue.code === 'invalid_value' && !issue.values.some((v) => typeof v === typeof issue.input)) return typeof issue.values[0];
  // A discriminated union none of whose `type`s the input had.
  if (issue.code === 'invalid_union' && issue.errors.length === 0) return 'object';
  return undefined;
}

/**
 * A union failure says only "invalid input" at the union's path. When one branch got past the kind
 * check (e.g. content was an array, but a block in it was wrong; tool_choice was an object, but its
 * function had no name), that branch's issue is the useful one.
 */
function mostSpecific(issue: Issue): Issue {
  if (issue.code !== 'invalid_union' || !('errors' in issue) || issue.errors.length === 0) return issue;
  const branch = issue.errors.find((b) => b.length > 0 && refusedKind(b[0]) === undefined);
  if (!branch) return issue;
  const inner = mostSpecific(branch[0]);
  return { ...inner, path: [...issue.path, ...inner.path] } as Issue;
}

/** "expected string, array or null": the kinds every branch of a union wanted, none of which the input was. */
function expectedKinds(issue: Issue): string | undefined {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return undefined;
  const kinds = issue.errors.map((b) => (b.length > 0 ? refusedKind(b[0]) : undefined));
  if (kinds.some((k) => k === undefined)) return undefined;
  const unique = [...new Set(kinds as string[])];
  return unique.length === 1 ? unique[0] : `${unique.slice(0, -1).join(', ')} or ${unique.at(-1)}`;
}

/** What was wrong, in words: "is required" only for a missing value, the kind seen for a wrong one. */
function describeIssue(issue: Issue, param: string): string {
  if (issue.code === 'invalid_type') {
    if (issue.input === undefined) {
      // An empty body at the root (the request schemas say so); a missing field below it. A schema
      // may say more about a missing field after the same words.
      if (!param) return isZodDefault(issue.message) ? 'value is required' : issue.message;
      const required = `${param} is required`;
      return issue.message.startsWith(required) ? issue.message : required;
    }
    // zod's wording, or a message written for the missing case ("model is required"): say what was seen.
    if (isZodDefault(issue.message) || / is required\b/.test(issue.message))
      return `expected ${issue.expected}, got ${describeValue(issue.input)}`;
    return issue.message;
  }
  if (issue.code === 'unrecognized_keys') return `unknown field(s): ${issue.keys.join(', ')}`;
  const kinds = isZodDefault(issue.message) ? expectedKinds(issue) : undefined;
  if (kinds && 'input' in issue) return `expected ${kinds}, got ${describeValue(issue.input)}`;
  return issue.message;
}

export function zodToGatewayError(error: z.ZodError): GatewayError {
  const issue = mostSpecific(error.issues[0]);
  const param = formatPath(issue.path);
  const message = describeIssue(issue, param);
  return errors.invalidRequest(param ? `Invalid '${param}': ${message}` : message, param || null);
}

/**
 * `err` naming `param` instead (a translated request's 400 naming the client's own field; null: no
 * field). Its message's "Invalid '<old param>': " becomes "Invalid '<param>': ", or goes with a null
 * param. Anything that is not a 400 naming a field is returned as it is.
 */
export function withParam(err: GatewayError, param: string | null): GatewayError {
  if (err.status !== 400 || err.param === null || err.param === param) return err;
  const prefix = `Invalid '${err.param}': `;
  const detail = err.message.startsWith(prefix) ? err.message.slice(prefix.length) : null;
  const message = detail === null ? err.message : param ? `Invalid '${param}': ${detail}` : detail;
  return new GatewayError({ ...err.toJSON(), param, message });
}

/** What a wrong value was, for a message: its JSON type, without echoing the value itself. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  // A query parameter coerced to a number ("?limit=abc") arrives as NaN.
  if (Number.isNaN(value)) return 'a value that is not a number';
  // JSON's 1e999 parses as Infinity.
  if (typeof value === 'number' && !Number.isFinite(value)) return 'a number too large to hold';
  if (typeof value === 'number' && !Number.isInteger(value)) return 'a fractional number';
  return typeof value === 'object' ? 'object' : typeof value;
}

/**
 * For a schema's `.transform`: the `keys` whose value is null are dropped, as if the client had left
 * them out. OpenAI's clients may send null for an optional field (its SDK's types allow it for the
 * sampling fields, `max_tokens`, `n`, `stream`, `seed`: "use the default"); dropped here, no adapter
 * ever sees a null where it checks `!== undefined`.
 */
export function dropNulls<T extends object, K extends keyof T>(keys: readonly K[]) {
  return (value: T): NullsDropped<T, K> => {
    for (const key of keys) if (value[key] === null) delete value[key];
    return value as NullsDropped<T, K>;
  };
}

/** `T` with null out of the types of `K` (homomorphic: a loose object's index signature and optional keys stay). */
export type NullsDropped<T, K extends keyof T> = { [P in keyof T]: P extends K ? Exclude<T[P], null> : T[P] };
