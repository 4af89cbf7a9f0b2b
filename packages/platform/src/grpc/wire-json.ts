/**
 * JSON bytes on the internal wire, validated against their contracts schema on decode: what crosses a
 * service boundary is checked like any other input (STYLE.md: validate at every boundary).
 */
import { errors, GatewayError } from '@unigate/contracts';
import type { z } from 'zod';
import { restoreBlobs, type WireBlob } from './wire-blobs';

export function encodeJson(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value));
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
    json = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch {
    throw failure(`${what} is not JSON`, fault);
  }
  if (blobs.length > 0) restoreBlobs(json, blobs);
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw failure(`${what} failed validation at '${issue?.path.join('.') ?? ''}': ${issue?.message ?? ''}`, fault);
}

function failure(message: string, fault: 'request' | 'peer'): GatewayError {
  return fault === 'request'
    ? errors.invalidRequest(message, null, 'invalid_internal_request')
    : new GatewayError({ status: 502, code: 'invalid_internal_answer', type: 'server_error', message });
}
