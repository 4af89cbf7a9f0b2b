import type { z } from 'zod';
import type { HttpClient, HttpRequest, HttpResponse } from './http-client';
import { readJsonBody } from './read-json-body';
import { transportError } from './transport-errors';
import { upstreamHttpError, type UpstreamErrorPolicy } from './upstream-errors';

/**
 * One request to an upstream: a failure below HTTP becomes a transport error, a non-2xx answer the
 * vendor's own error (read by its policy); a 2xx is returned unread.
 */
export async function sendUpstream(http: HttpClient, req: HttpRequest, policy: UpstreamErrorPolicy): Promise<HttpResponse> {
  let res: HttpResponse;
  try {
    res = await http.request(req);
  } catch (err) {
    throw transportError(err, req.signal);
  }
  if (res.status >= 200 && res.status < 300) return res;
  const text = await res.body.text().catch(() => '');
  res.wait?.end();
  throw upstreamHttpError(policy, res.status, text, res.headers);
}

/** sendUpstream with POST. */
export function postUpstream(http: HttpClient, req: Omit<HttpRequest, 'method'>, policy: UpstreamErrorPolicy): Promise<HttpResponse> {
  return sendUpstream(http, { ...req, method: 'POST' }, policy);
}

/** How to read a JSON answer: its vendor schema, and its name in error messages. */
export interface JsonAnswer<S extends z.ZodType> {
  schema: S;
  what: string;
}

/** sendUpstream for a JSON answer, read whole (no response stream) and checked by readJsonBody. */
export async function sendUpstreamJson<S extends z.ZodType>(
  http: HttpClient,
  req: HttpRequest,
  policy: UpstreamErrorPolicy,
  answer: JsonAnswer<S>,
): Promise<z.infer<S>> {
  const res = await sendUpstream(http, { ...req, whole: true }, policy);
  return readJsonBody(res, answer.schema, answer.what, req.signal);
}

/** sendUpstreamJson with POST. */
export function postUpstreamJson<S extends z.ZodType>(
  http: HttpClient,
  req: Omit<HttpRequest, 'method'>,
  policy: UpstreamErrorPolicy,
  answer: JsonAnswer<S>,
): Promise<z.infer<S>> {
  return sendUpstreamJson(http, { ...req, method: 'POST' }, policy, answer);
}
