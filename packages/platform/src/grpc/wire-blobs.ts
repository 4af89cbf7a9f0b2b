/**
 * Long base64 strings (images in a request or an answer) cross the internal wire as raw bytes beside
 * their JSON (endpoint.proto `Blob`): a quarter fewer bytes, and nothing for JSON to escape or scan.
 * Only canonical base64 is lifted, so putting it back gives exactly the string that was taken out.
 */
import { canonicalBase64, errors } from '@unigate/contracts';

/** Shorter strings stay in the JSON: lifting them would save less than it costs. */
export const BLOB_MIN_CHARS = 8 * 1024;

export interface WireBlob {
  /** Object keys and array indices from the root to the string. */
  path: string[];
  data: Uint8Array;
}

/**
 * JSON bytes of `value` with its long base64 strings left empty, and those strings as bytes. The
 * value is not changed (the strings are put back once it is encoded).
 */
export function encodeWithBlobs(value: unknown): { json: Buffer; blobs: WireBlob[] } {
  // JSON shorter than a blob cannot hold one: every stream chunk and most calls end here, unwalked.
  const text = JSON.stringify(value);
  if (text.length < BLOB_MIN_CHARS) return { json: Buffer.from(text), blobs: [] };
  const lifted: Array<{ holder: Record<string, unknown>; key: string; text: string }> = [];
  const blobs: WireBlob[] = [];
  // One path for the whole walk, copied only when a string is lifted: every stream item passes here.
  const path: string[] = [];
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    const holder = node as Record<string, unknown>;
    for (const key of Object.keys(holder)) {
      const child = holder[key];
      if (typeof child === 'string') {
        const data = child.length >= BLOB_MIN_CHARS ? canonicalBase64(child) : undefined;
        if (data) {
          lifted.push({ holder, key, text: child });
          blobs.push({ path: [...path, key], data });
        }
      } else if (child !== null && typeof child === 'object') {
        path.push(key);
        walk(child);
        path.pop();
      }
    }
  };
  walk(value);
  if (lifted.length === 0) return { json: Buffer.from(text), blobs };
  for (const l of lifted) l.holder[l.key] = '';
  try {
    return { json: Buffer.from(JSON.stringify(value)), blobs };
  } finally {
    for (const l of lifted) l.holder[l.key] = l.text;
  }
}

/** Puts the lifted strings back into the parsed JSON (before it is validated). */
export function restoreBlobs(json: unknown, blobs: readonly WireBlob[]): void {
  for (const blob of blobs) {
    let node = json;
    const { path } = blob;
    for (let i = 0; i < path.length - 1; i++) node = child(node, path[i]);
    const last = path[path.length - 1];
    if (node === null || typeof node !== 'object' || last === undefined || typeof (node as Record<string, unknown>)[last] !== 'string')
      throw badBlob(path);
    const data = blob.data;
    (node as Record<string, unknown>)[last] = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
  }
}

function child(node: unknown, key: string | undefined): unknown {
  if (node === null || typeof node !== 'object' || key === undefined || !Object.hasOwn(node, key)) throw badBlob([key ?? '']);
  return (node as Record<string, unknown>)[key];
}

function badBlob(path: string[]) {
  return errors.upstream(502, `an internal message carried bytes for '${path.join('.')}', which its JSON does not have`, false);
}
