/**
 * Request bodies sent with a Content-Encoding (gzip, deflate, br) are decoded before they are parsed.
 * Coding agents resend their whole session every turn, and some clients compress it. The body limit
 * holds for the decoded bytes, so a small compressed body that would decode past it (a "zip bomb")
 * is a 413 as soon as the decoded bytes pass the limit, never decoded in full.
 *
 * A coding the edge cannot decode (zstd on this Node version, compress, a chain of several) is a 415
 * that lists the ones it can in `Accept-Encoding` (RFC 9110 §12.5.3); a body that does not decode is
 * a 400. Multipart bodies are read from the raw request by their parser, so they must come unencoded.
 */
import { PassThrough, type Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { errors, GatewayError } from '@unigate/contracts';
import type { FastifyInstance } from 'fastify';

const DECODERS: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** What a 415 offers instead, as Accept-Encoding lists it. */
export const ACCEPTED_ENCODINGS = 'gzip, deflate, br';

/** The stream Fastify reads the body from: decoded bytes, the encoded count for its length checks. */
type DecodedBody = PassThrough & { receivedEncodedLength: number };

export function registerBodyDecoding(fastify: FastifyInstance, limitBytes: number): void {
  // A callback hook: nothing but a header lookup for the requests that send no Content-Encoding.
  fastify.addHook('preParsing', (request, reply, payload, done) => {
    const header = request.headers['content-encoding'];
    if (header === undefined) return done(null, payload);
    const codings = header
      .split(',')
      .map((c) => c.trim().toLowerCase())
      .filter((c) => c !== '' && c !== 'identity');
    if (codings.length === 0) return done(null, payload);
    const decoder = codings.length === 1 ? DECODERS[codings[0]] : undefined;
    const multipart = /^\s*multipart\//i.test(request.headers['content-type'] ?? '');
    if (!decoder || multipart) {
      void reply.header('accept-encoding', ACCEPTED_ENCODINGS);
      return done(unsupported(header, multipart));
    }
    done(null, decoded(payload, decoder(), limitBytes));
  });
}

function unsupported(header: string, multipart: boolean): GatewayError {
  const message = multipart
    ? 'A multipart/form-data body cannot be sent with a Content-Encoding; send it unencoded.'
    : `Content-Encoding '${header.slice(0, 64)}' is not supported; send the body unencoded or with one of: ${ACCEPTED_ENCODINGS}.`;
  return new GatewayError({ status: 415, code: 'unsupported_content_encoding', message });
}

/**
 * The decoded body. Counts what arrives encoded (Fastify checks it against Content-Length and the
 * limit) and what comes out decoded, and stops decoding past the limit: Fastify only stops listening.
 * Not `stream.pipeline`: on a failure it would destroy the request, and with it the socket the
 * answer goes out on. The request keeps flowing instead (its rest read and dropped, as Node does
 * for any body left unread), so the client gets its 400 or 413.
 */
function decoded(payload: Readable, decoder: Transform, limitBytes: number): DecodedBody {
  const out = Object.assign(new PassThrough(), { receivedEncodedLength: 0 });
  let decodedBytes = 0;
  const fail = (err: Error) => {
    payload.unpipe(decoder);
    decoder.destroy();
    if (!out.destroyed) out.destroy(err);
  };
  payload.on('data', (chunk: Buffer) => {
    out.receivedEncodedLength += chunk.length;
  });
  // The client leaving (an aborted upload) stays what it is: the renderer answers nobody.
  payload.on('error', fail);
  decoder.on('data', (chunk: Buffer) => {
    decodedBytes += chunk.length;
    if (decodedBytes > limitBytes) fail(errors.payloadTooLarge(limitBytes));
  });
  decoder.on('error', (err) => {
    fail(
      errors.invalidRequest(
        `The request body does not decode as its Content-Encoding says (${err.message}).`,
        null,
        'invalid_content_encoding',
      ),
    );
  });
  // Fastify listens only while it reads: a Content-Length over the limit is refused before it does.
  out.on('error', () => undefined);
  payload.pipe(decoder).pipe(out);
  return out;
}
