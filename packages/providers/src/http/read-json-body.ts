/**
 * Reading an upstream's whole JSON answer: the body (a transport failure mapped like any other), then
 * the vendor's schema. An answer that is not what the schema says is the upstream's fault: a
 * retryable 502, so another channel may serve the request.
 */
import { errors } from '@unigate/contracts';
import type { z } from 'zod';
import type { HttpResponse } from './http-client';
import { transportError } from './transport-errors';

/** `prepare` may reshape the parsed JSON before validation (e.g. drop parts a newer vendor added). */
export async function readJsonBody<S extends z.ZodType>(
  res: HttpResponse,
  schema: S,
  what: string,
  signal?: AbortSignal,
  prepare: (json: unknown) => unknown = (json) => json,
): Promise<z.infer<S>> {
  let text: string;
  try {
    text = await res.body.text();
  } catch (err) {
    throw transportError(err, signal, 'upstream response failed');
  } finally {
    res.wait?.end();
  }
  const parsed = schema.safeParse(prepare(parseJson(text)));
  if (!parsed.success)
    throw errors.upstream(502, `upstream sent an invalid ${what}: ${parsed.error.issues[0]?.message ?? 'not JSON'}`, true);
  return parsed.data;
}

/** JSON.parse that answers undefined for what is not JSON (the schema then says what was wrong). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
