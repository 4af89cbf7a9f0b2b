/**
 * The byte range a `Range` header asks of a file (RFC 9110 §14): what lets a video player seek in a
 * result and resume a cut download (Safari plays a video only from a server that answers ranges).
 * One range only: several (`bytes=0-1,5-6`), another unit or a malformed header are ignored, and the
 * whole file answers, as the RFC allows.
 */
export type ByteRange = { start: number; end: number } | 'unsatisfiable' | null;

const SINGLE_RANGE = /^bytes=(\d*)-(\d*)$/;

/** The inclusive range of `size` bytes `header` asks for; null: answer the whole file; 'unsatisfiable': 416. */
export function byteRange(header: string | undefined, size: number): ByteRange {
  const m = header === undefined ? null : SINGLE_RANGE.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    // A suffix: the last N bytes.
    const n = Number(m[2]);
    return n === 0 || size === 0 ? 'unsatisfiable' : { start: Math.max(size - n, 0), end: size - 1 };
  }
  const start = Number(m[1]);
  const last = m[2] === '' ? Infinity : Number(m[2]);
  if (last < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(last, size - 1) };
}
