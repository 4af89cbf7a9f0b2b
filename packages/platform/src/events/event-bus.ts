/**
 * Facts that happened, published to a topic and consumed in consumer groups. Kafka in distributed
 * mode, in-process in standalone. Delivery is at-least-once: every consumer must be idempotent.
 */
export interface EventMeta {
  topic: string;
  key: string;
  headers: Record<string, string>;
}

export type EventHandler = (payload: unknown, meta: EventMeta) => Promise<void>;

/**
 * A group of this process alone, for events every replica must hear (the edge's cache invalidations).
 * Over Kafka nothing is committed: a group with committed offsets outlives its process on the brokers
 * for `offsets.retention.minutes` (a week by default), listed and showing lag all along, one more
 * after every restart of every replica; one without is dropped at the brokers' next clean-up once
 * empty. So each membership starts at the topics' end, and what was published before it is not
 * delivered: `onJoin` runs once the membership's start is fixed (its first fetch), for the process to
 * refresh what those events keep fresh. An event published after that point is delivered.
 */
export interface OwnGroup {
  onJoin(): void;
}

export interface SubscribeOptions {
  ownGroup?: OwnGroup;
}

export interface EventBus {
  publish(topic: string, key: string, payload: object, headers?: Record<string, string>): Promise<void>;
  /** Handlers run one message at a time per partition; a throw means "not processed, redeliver". */
  subscribe(topic: string, groupId: string, handler: EventHandler): Promise<void>;
  /** subscribe for several topics as one group member (over Kafka: one consumer), `handlers` by topic. */
  subscribeAll(groupId: string, handlers: Record<string, EventHandler>, options?: SubscribeOptions): Promise<void>;
  close(): Promise<void>;
}
