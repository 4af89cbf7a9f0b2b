/**
 * Request bodies held at once, bounded per process. A body is in memory several times over while it
 * is read, parsed and forwarded (its bytes, its text, the parsed value, the upstream's copy), and its
 * parsed value stays until the answer ends: eight 30 MB chat requests at once took a process with the
 * chart's 307 MB heap past its heap limit, a crash that cut every stream it carried. Each body is
 * counted from its first byte until its answer ends: by its Content-Length before it is read when it
 * declares one and is not encoded, otherwise as its (decoded) bytes arrive.
 *
 * A body that would take the process past its limit is refused 503 (retry shortly, likely on another
 * replica), and one that would take its key past half of it 429 (that key's own bodies are what it
 * waits for), so that one key cannot take every large body's room. A request's body is never refused
 * while nothing else is held (a limit below the body limit still lets any valid request through), nor
 * while it is small: ordinary requests go on while large uploads wait.
 */
import { getHeapStatistics } from 'node:v8';
import { Transform, type Readable } from 'node:stream';
import { errors, type GatewayError } from '@unigate/contracts';
import { metricsRegistry } from '@unigate/platform';
import type { FastifyInstance } from 'fastify';
import { Gauge } from 'prom-client';

/** Bodies up to this size are counted but never refused. */
export const SMALL_BODY_BYTES = 64 * 1024;

/** The default limit: a quarter of the V8 heap limit (what is held is several copies at its peak). */
export function defaultBodyMemoryBytes(): number {
  return Math.floor(getHeapStatistics().heap_size_limit / 4);
}

const heldGauge = new Gauge({
  name: 'unigate_request_body_bytes',
  help: 'Bytes of request bodies this process holds now: from their first byte until their answer ends',
  registers: [metricsRegistry],
});

/** One request's share of the budget. */
export interface BodyTicket {
  /** The caller's key id, '' for a request without one (its bodies count for the process only). */
  readonly key: string;
  bytes: number;
}

export type BodyRefusal = 'key' | 'process';

/** Refusals are told (logged) at most this often: under pressure there may be thousands a second. */
export const REFUSAL_TOLD_EVERY_MS = 10_000;

export class BodyBudget {
  private held = 0;
  /** Key id → bytes its requests hold; a key holding nothing has no entry. */
  private readonly byKey = new Map<string, number>();
  private readonly toldAt: Record<BodyRefusal, number> = { key: -Infinity, process: -Infinity };

  /** `limitBytes` 0: no limit (bodies are still counted). `onRefused`: at most once per REFUSAL_TOLD_EVERY_MS for each scope. */
  constructor(
    readonly limitBytes: number,
    private readonly onRefused: (scope: BodyRefusal, ticket: BodyTicket) => void = () => undefined,
  ) {}

  /** Bytes held now, by every request, and by `key`'s. */
  heldBytes(key?: string): number {
    return key === undefined ? this.held : (this.byKey.get(key) ?? 0);
  }

  /** Adds `bytes` to `ticket`'s share, or the refusal (nothing counted). */
  charge(ticket: BodyTicket, bytes: number): GatewayError | undefined {
    if (bytes <= 0) return undefined;
    const keyHeld = ticket.key === '' ? 0 : (this.byKey.get(ticket.key) ?? 0);
    if (this.limitBytes > 0 && ticket.bytes + bytes > SMALL_BODY_BYTES) {
      if (ticket.key !== '' && keyHeld > ticket.bytes && keyHeld + bytes > this.limitBytes / 2) {
        this.tell('key', ticket);
        return errors.rateLimited(
          `This API key's requests in flight hold ${mib(keyHeld)} MiB of request bodies, its share of this gateway's memory; retry when one of them has been answered.`,
          1,
        );
      }
      if (this.held > ticket.bytes && this.held + bytes > this.limitBytes) {
        this.tell('process', ticket);
        return errors.unavailable('The gateway is holding as many request bodies as its memory allows; retry shortly.', 1);
      }
    }
    this.held += bytes;
    if (ticket.key !== '') this.byKey.set(ticket.key, keyHeld + bytes);
    ticket.bytes += bytes;
    heldGauge.inc(bytes);
    return undefined;
  }

  private tell(scope: BodyRefusal, ticket: BodyTicket): void {
    const now = performance.now();
    if (now - this.toldAt[scope] < REFUSAL_TOLD_EVERY_MS) return;
    this.toldAt[scope] = now;
    this.onRefused(scope, ticket);
  }

  /** Gives back all of `ticket`'s share (its answer ended). */
  release(ticket: BodyTicket): void {
    const bytes = ticket.bytes;
    if (bytes === 0) return;
    ticket.bytes = 0;
    this.held -= bytes;
    heldGauge.dec(bytes);
    if (ticket.key === '') return;
    const left = (this.byKey.get(ticket.key) ?? 0) - bytes;
    if (left > 0) this.byKey.set(ticket.key, left);
    else this.byKey.delete(ticket.key);
  }
}

const mib = (bytes: number) => Math.ceil(bytes / (1024 * 1024));

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
