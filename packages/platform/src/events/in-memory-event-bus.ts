/**
 * EventBus inside one process (standalone). Mirrors the Kafka semantics consumers rely on:
 * - every consumer group gets every event of its topic; members of one group share the work;
 * - events with the same key are handled one at a time, in order ("partitions" = lanes by key hash);
 * - delivery is asynchronous (publish returns before any handler runs) and payloads are copied
 *   through JSON, exactly as they would be over the wire;
 * - a handler that throws gets the same event again after a backoff; nothing is skipped.
 * Events published to a topic before any group subscribed are kept (bounded) and handed to the first
 * group that does, like a new Kafka group starting from the beginning.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from 'pino';
import { backoffMs, sleep, type BackoffOptions } from './backoff';
import type { EventBus, EventHandler } from './event-bus';
import { runInTraceContext, withTraceHeaders } from './trace-headers';

export interface InMemoryEventBusOptions {
  logger: Logger;
  /** Lanes per group; events of one key always use the same lane (default 4, like the mock broker). */
  partitions?: number;
  /** Events kept for a topic nobody subscribed to yet (default 10 000; oldest dropped first). */
  maxBacklog?: number;
  retryBackoff?: BackoffOptions;
}

interface Envelope {
  topic: string;
  key: string;
  json: string;
  headers: Record<string, string>;
}

interface Group {
  handlers: EventHandler[];
  lanes: Lane[];
}

interface Lane {
  queue: Envelope[];
  /** Set while a drain loop owns the lane; cleared in the same tick the loop sees an empty queue. */
  draining?: Promise<void>;
}

export class InMemoryEventBus implements EventBus {
  private readonly topics = new Map<string, Map<string, Group>>();
  private readonly backlog = new Map<string, Envelope[]>();
  private readonly abort = new AbortController();
  private readonly partitions: number;

  constructor(private readonly opts: InMemoryEventBusOptions) {
    this.partitions = Math.max(1, opts.partitions ?? 4);
  }

  isReady(): boolean {
    return !this.abort.signal.aborted;
  }

  async checkReady(): Promise<void> {
    if (!this.isReady()) throw new Error('event bus: closed');
  }

  async publish(topic: string, key: string, payload: object, headers?: Record<string, string>): Promise<void> {
    if (this.abort.signal.aborted) throw new Error('InMemoryEventBus is closed');
    const env: Envelope = { topic, key, json: JSON.stringify(payload), headers: withTraceHeaders(headers) };
    const groups = this.topics.get(topic);
    if (!groups) {
      const kept = this.backlog.get(topic) ?? [];
      kept.push(env);
      if (kept.length > (this.opts.maxBacklog ?? 10_000)) kept.shift();
      this.backlog.set(topic, kept);
      return;
    }
    for (const group of groups.values()) this.enqueue(group, env);
  }

  async subscribe(topic: string, groupId: string, handler: EventHandler): Promise<void> {
    if (this.abort.signal.aborted) throw new Error('InMemoryEventBus is closed');
    let groups = this.topics.get(topic);
    if (!groups) {
      groups = new Map();
      this.topics.set(topic, groups);
    }
    let group = groups.get(groupId);
    if (!group) {
      group = { handlers: [], lanes: Array.from({ length: this.partitions }, () => ({ queue: [] })) };
      groups.set(groupId, group);
    }
    group.handlers.push(handler);
    const waiting = this.backlog.get(topic);
    if (waiting) {
      this.backlog.delete(topic);
      for (const env of waiting) this.enqueue(group, env);
    }
  }

  /** In process no event is missed between memberships: an own group (SubscribeOptions) is an ordinary one. */
  async subscribeAll(groupId: string, handlers: Record<string, EventHandler>): Promise<void> {
    for (const [topic, handler] of Object.entries(handlers)) await this.subscribe(topic, groupId, handler);
  }

  /** Stops delivery; waits for handlers that are running right now. Undelivered events are dropped. */
  async close(): Promise<void> {
    this.abort.abort();
    const running: Promise<void>[] = [];
    for (const groups of this.topics.values())
      for (const g of groups.values()) for (const lane of g.lanes) if (lane.draining) running.push(lane.draining);
    await Promise.allSettled(running);
  }

  private enqueue(group: Group, env: Envelope): void {
    const laneIndex = hashKey(env.key) % group.lanes.length;
    const lane = group.lanes[laneIndex];
    lane.queue.push(env);
    if (!lane.draining) lane.draining = this.drain(group, laneIndex);
  }

  private async drain(group: Group, laneIndex: number): Promise<void> {
    const lane = group.lanes[laneIndex];
    const signal = this.abort.signal;
    await nextTurn();
    let attempts = 0;
    while (lane.queue.length > 0 && !signal.aborted) {
      const env = lane.queue[0];
      // Members of a group share the lanes the way Kafka spreads partitions over members.
      const handler = group.handlers[laneIndex % group.handlers.length];
      try {
        await runInTraceContext(env.topic, env.headers, () =>
          handler(JSON.parse(env.json), { topic: env.topic, key: env.key, headers: { ...env.headers } }),
        );
        lane.queue.shift();
        attempts = 0;
      } catch (err) {
        attempts += 1;
        this.opts.logger.warn({ err, topic: env.topic, key: env.key, attempts }, 'event handler failed; will redeliver');
        await sleep(backoffMs(attempts, this.opts.retryBackoff), signal);
      }
    }
    lane.draining = undefined;
  }
}

/** FNV-1a: a stable, cheap key → lane mapping. */
function hashKey(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
