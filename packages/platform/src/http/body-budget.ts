/**
 * Request bodies held at once, bounded per process. A body is in memory several times over while it
 * is read, parsed and forwarded (its bytes, its text, the parsed value, the upstream's copy), and its
 * parsed value stays until the answer ends: eight 30 MB chat requests at once took a process with the
 * chart's 307 MB heap past its heap limit, a crash that cut every stream it carried. The edge counts
 * each body from its first byte until its answer ends (apps/edge/src/http/body-budget.ts); a capability
 * service counts each call's body from its arrival over gRPC until the call ends (endpoint-transport.ts),
 * since several edges may send to one replica.
 *
 * A body that would take the process past its limit is refused 503 (retry shortly, likely on another
 * replica), and one that would take its key past half of it 429 (that key's own bodies are what it
 * waits for), so that one key cannot take every large body's room. A request's body is never refused
 * while nothing else is held (a limit below the body limit still lets any valid request through), nor
 * while it is small: ordinary requests go on while large uploads wait.
 */
import { getHeapStatistics } from 'node:v8';
import { errors, type GatewayError } from '@unigate/contracts';
import { Gauge } from 'prom-client';
import { z } from 'zod';
import { readEnv, wholeNumber } from '../env';
import type { Logger } from '../logger';
import { metricsRegistry } from '../observability/metrics';

/** Bodies up to this size are counted but never refused. */
export const SMALL_BODY_BYTES = 64 * 1024;

/** The default limit: a quarter of the V8 heap limit (what is held is several copies at its peak). */
export function defaultBodyMemoryBytes(): number {
  return Math.floor(getHeapStatistics().heap_size_limit / 4);
}

const bodyMemoryEnv = z.object({
  UNIGATE_BODY_MEMORY_MB: wholeNumber(0, 1024 * 1024, 'UNIGATE_BODY_MEMORY_MB must be a whole number of MiB, 0 or more'),
});

/** UNIGATE_BODY_MEMORY_MB in bytes (0: no limit), or the default when unset or blank (not 0: that would lift the limit). */
export function bodyMemoryBytesFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const mb = readEnv(bodyMemoryEnv, env).UNIGATE_BODY_MEMORY_MB;
  return mb === undefined ? defaultBodyMemoryBytes() : mb * 1024 * 1024;
}

/** Registered by the first budget: processes that hold no bodies (billing, catalog) do not report a constant 0. */
const HELD_GAUGE = 'unigate_request_body_bytes';
const heldGauge = new Gauge({
  name: HELD_GAUGE,
  help: 'Bytes of request bodies this process holds now: from their first byte until their answer ends',
  registers: [],
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
  ) {
    if (!metricsRegistry.getSingleMetric(HELD_GAUGE)) metricsRegistry.registerMetric(heldGauge);
  }

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

/** A budget of `limitBytes` whose refusals are logged at warn (at most once per 10 s for each kind). */
export function loggedBodyBudget(limitBytes: number, logger: Logger): BodyBudget {
  const budget: BodyBudget = new BodyBudget(limitBytes, (scope, ticket) =>
    logger.warn(
      { scope, key_id: ticket.key || undefined, held_bytes: budget.heldBytes(), limit_bytes: limitBytes },
      scope === 'process'
        ? 'request bodies refused 503: this process holds as many as UNIGATE_BODY_MEMORY_MB allows (more replicas or memory, or a client sending many large bodies)'
        : 'request bodies refused 429: one key holds half of what UNIGATE_BODY_MEMORY_MB allows',
    ),
  );
  return budget;
}
