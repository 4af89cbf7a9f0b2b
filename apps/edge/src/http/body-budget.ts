/**
 * The edge's request bodies against the process's body budget (@unigate/platform's BodyBudget): each
 * body counts from its first byte until its answer ends, by its Content-Length before it is read when
 * it declares one and is not encoded, otherwise as its (decoded) bytes arrive.
 */
import { Transform, type Readable } from 'node:stream';
import type { GatewayError } from '@unigate/contracts';
import type { BodyBudget, BodyTicket } from '@unigate/platform';
import type { FastifyInstance } from 'fastify';

/**
 * Counts every request body against `budget`. Registered after the body decoding hook: an encoded
 * body then arrives here as its decoded stream, counted as it decodes. `bodyLimit`: a body declared
 * larger is left to the 413 that follows.
 */
export function registerBodyBudget(fastify: FastifyInstance, budget: BodyBudget, bodyLimit: number): void {
  // A callback hook: a few header reads and additions on every request.
  fastify.addHook('preParsing', (request, reply, payload, done) => {
    const headers = request.headers;
    const declared = headers['content-length'];
    const chunked = headers['transfer-encoding'] !== undefined;
    if (declared === undefined && !chunked) return done(null, payload);
    const ticket: BodyTicket = { key: request.principal?.key_id ?? '', bytes: 0 };
    reply.raw.once('close', () => budget.release(ticket));
    const decoded = payload !== request.raw;
    if (decoded || (chunked && !/^\s*multipart\//i.test(headers['content-type'] ?? '')))
      return done(
        null,
        metered(payload, (bytes) => budget.charge(ticket, bytes)),
      );
    // Up front: by its length, or at the body limit for a form of unknown length (its parser reads the
    // request itself, past this hook's stream). A body declared over the limit is the 413's.
    const length = chunked ? bodyLimit : Number(declared);
    const refused = length <= bodyLimit ? budget.charge(ticket, length) : undefined;
    // Not read just to be dropped: the connection closes after the answer.
    if (refused) void reply.header('connection', 'close');
    done(refused ?? null, payload);
  });
}

/**
 * `payload` counted chunk by chunk; a refused chunk fails the stream with its refusal (Fastify then
 * answers it and closes the connection). Fastify's length checks read the decoded stream's encoded
 * length off the stream they are given: it is passed on.
 */
function metered(payload: Readable, charge: (bytes: number) => GatewayError | undefined): Readable {
  const out = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const refused = charge(chunk.length);
      if (refused) payload.unpipe(out);
      callback(refused ?? null, refused ? undefined : chunk);
    },
  });
  const source = payload as Readable & { receivedEncodedLength?: number };
  if ('receivedEncodedLength' in source) Object.defineProperty(out, 'receivedEncodedLength', { get: () => source.receivedEncodedLength });
  // Fastify listens only while it reads (a body over the limit stops it first); errors after are dropped.
  out.on('error', () => undefined);
  payload.on('error', (err) => out.destroy(err));
  payload.pipe(out);
  return out;
}
