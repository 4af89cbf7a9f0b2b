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

export interface EventBus {
  publish(topic: string, key: string, payload: object, headers?: Record<string, string>): Promise<void>;
  /** Handlers run one message at a time per partition; a throw means "not processed, redeliver". */
  subscribe(topic: string, groupId: string, handler: EventHandler): Promise<void>;
  /** subscribe for several topics as one group member (over Kafka: one consumer), `handlers` by topic. */
  subscribeAll(groupId: string, handlers: Record<string, EventHandler>): Promise<void>;
  close(): Promise<void>;
}
