/**
 * JSON bytes on the internal wire, validated against their contracts schema on decode: what crosses a
 * service boundary is checked like any other input (STYLE.md: validate at every boundary).
 */
import { deepFreeze, dropOldest, errors, GatewayError } from '@unigate/contracts';
import type { z } from 'zod';
import { restoreBlobs, type WireBlob } from './wire-blobs';

export function encodeJson(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value));
}

/** The UTF-8 text of JSON bytes from the wire, without copying them. */
export function jsonText(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/**
 * `bytes` parsed, the base64 strings that travelled beside it put back (wire-blobs.ts), and checked
 * against `schema`. `fault` decides whose mistake a failure is: the caller's request (400, the
 * message naming the field) or the peer service's answer (502).
 */
export function decodeJson<S extends z.ZodType>(
  schema: S,
  bytes: Uint8Array,
  what: string,
  fault: 'request' | 'peer',
  blobs: readonly WireBlob[] = [],
): z.infer<S> {
  let json: unknown;
  try {
    json = JSON.parse(jsonText(bytes));
  } catch {
    throw failure(`${what} is not JSON`, fault);
  }
  if (blobs.length > 0) restoreBlobs(json, blobs);
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw failure(`${what} failed validation at '${issue?.path.join('.') ?? ''}': ${issue?.message ?? ''}`, fault);
}

/**
 * decodeJson for values that repeat byte for byte from call to call (a model's route: the same model
 * and channels on every request for it). Checking the same bytes gives the same value, so the value
 * of bytes seen before is reused, deep-frozen so that no caller can change what the next one gets:
 * a route's parse and check cost chat ~0.1 ms per request, more than the request body's. The newest
 * `max` distinct values are kept.
 */
export function repeatingJsonDecoder<S extends z.ZodType>(
  schema: S,
  what: string,
  fault: 'request' | 'peer',
  max = 256,
): (bytes: Uint8Array) => z.infer<S> {
  const seen = new Map<string, z.infer<S>>();
  return (bytes) => {
    // latin1: one character per byte, so the key is exactly the bytes (and cheaper than UTF-8).
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
    const known = seen.get(text);
    if (known !== undefined) return known;
    const value = deepFreeze(decodeJson(schema, bytes, what, fault));
    seen.set(text, value);
    dropOldest(seen, max);
    return value;
  };
}

function failure(message: string, fault: 'request' | 'peer'): GatewayError {
  return fault === 'request'
    ? errors.invalidRequest(message, null, 'invalid_internal_request')
    : new GatewayError({ status: 502, code: 'invalid_internal_answer', type: 'server_error', message });
}
