/**
 * The edge's request bodies against the process's body budget (@unigate/platform's BodyBudget): each
 * body counts from its first byte until its answer ends, by its Content-Length before it is read when
 * it declares one and is not encoded, otherwise as its (decoded) bytes arrive. An in-process request
 * made for a request holding a share (an MCP tool call's) counts in that share, as one request.
 */
import { Transform, type Readable } from 'node:stream';
import type { GatewayError } from '@unigate/contracts';
import type { BodyBudget, BodyTicket } from '@unigate/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The request's share of the body budget, once its body is counted; set before by LocalCalls on
     * an in-process request made for another, which then counts in its caller's share.
     */
    bodyTicket?: BodyTicket;
  }
}

/**
 * Counts every request body against `budget`. Registered after the body decoding hook: an encoded
 * body then arrives here as its decoded stream, counted as it decodes. `bodyLimit`: a body declared
 * larger is left to the 413 that follows.
 */
export function registerBodyBudget(fastify: FastifyInstance, budget: BodyBudget, bodyLimit: number): void {
  fastify.decorateRequest('bodyTicket', undefined);
  // A callback hook: a few header reads and additions on every request.
  fastify.addHook('preParsing', (request, reply, payload, done) => {
    const headers = request.headers;
    const declared = headers['content-length'];
    const chunked = headers['transfer-encoding'] !== undefined;
    if (declared === undefined && !chunked) return done(null, payload);
    // A caller's share is given back when the caller's answer ends, which is after this one's: an MCP
    // tool call's JSON-RPC body and the endpoint request made of it are in memory together, and a
    // key's lone tool call is not refused for being counted as two of its requests.
    const ticket = request.bodyTicket ?? ownTicket(request, reply, budget);
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
    // Refused before it is read: the answer's sender reads the rest and drops it (unread-body.ts).
    done(refused ?? null, payload);
  });
}

/** A share of `request`'s own, given back when its answer ends. */
function ownTicket(request: FastifyRequest, reply: FastifyReply, budget: BodyBudget): BodyTicket {
  const ticket: BodyTicket = { key: request.principal?.key_id ?? '', bytes: 0 };
  request.bodyTicket = ticket;
  reply.raw.once('close', () => budget.release(ticket));
  return ticket;
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
