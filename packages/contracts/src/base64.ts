/**
 * Canonical base64: the one spelling of its bytes, so decoding and encoding again gives back exactly
 * the string. Node's decoder skips what is not base64 (whitespace, other characters), reads the
 * URL-safe alphabet too and ignores set bits after the last byte; each of those encodes back to a
 * different string, so the round trip alone rejects them (a regular expression over 10 MB cost more
 * than the round trip itself).
 */
export function canonicalBase64(s: string): Buffer | undefined {
  if (s.length % 4 !== 0) return undefined;
  const bytes = Buffer.from(s, 'base64');
  return bytes.toString('base64') === s ? bytes : undefined;
}

/** Canonical base64 of whole float32 values (an embedding vector as vendors send it). */
export function isFloat32Base64(s: string): boolean {
  const bytes = canonicalBase64(s);
  return bytes !== undefined && (bytes.length & 3) === 0;
}
