/**
 * Request bodies are JSON whatever Content-Type a client sends (curl's default included); a body
 * that does not parse, or nests deeper than MAX_JSON_DEPTH, is a 400 `invalid_json` naming the
 * problem, never a 500.
 */
import { isUtf8 } from 'node:buffer';
import { errors, jsonDepthExceeds, MAX_JSON_DEPTH } from '@unigate/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * `text` as JSON, or the 400 `invalid_json` saying why. The depth is checked first: V8 parses any
 * depth, but whatever walks the value next (validation, JSON.stringify) would overflow the stack.
 */
export function parseJsonText(text: string): unknown {
  if (jsonDepthExceeds(text)) throw errors.invalidJson(`nesting is deeper than ${MAX_JSON_DEPTH} levels`);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw errors.invalidJson(e instanceof Error ? e.message : String(e));
  }
}

export function registerJsonBodyParser(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser(['application/json', 'text/plain']);
  // Read as bytes and checked whole: read as a string, Fastify would decode invalid UTF-8 to U+FFFD,
  // so a framed body failed its Content-Length check ("size did not match") and a chunked one was
  // accepted with its text changed.
  const parse = (req: FastifyRequest, bytes: Buffer, done: (err: Error | null, value?: unknown) => void) => {
    // Only the image edit endpoint reads forms (its own parser); elsewhere JSON.parse would say "No number after minus sign".
    if (req.headers['content-type']?.toLowerCase().startsWith('multipart/'))
      return done(errors.invalidJson('this endpoint takes a JSON body, and the request is multipart/form-data'));
    if (!isUtf8(bytes)) return done(errors.invalidJson('the body is not valid UTF-8'));
    // A leading byte order mark is skipped (RFC 8259 §8.1 lets a parser ignore it, and Python's
    // json.loads of bytes, behind vendors' own APIs, does): Windows tools write one.
    const body = bytes.toString('utf8', hasByteOrderMark(bytes) ? 3 : 0);
    if (body.trim() === '') return done(null, undefined);
    let value: unknown;
    try {
      value = parseJsonText(body);
    } catch (err) {
      return done(err as Error);
    }
    done(null, value);
  };
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, parse);
  fastify.addContentTypeParser('*', { parseAs: 'buffer' }, parse);
}

function hasByteOrderMark(bytes: Buffer): boolean {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}
