/**
 * The Kafka bus of a service that publishes usage (chat, media, video): one setup, so the linger that
 * bounds the kill -9 loss window (docs/reliability.md) and the readiness check are the same everywhere.
 */
import { createLogger } from '../logger';
import type { Readiness } from '../observability/readiness';
import { KafkaEventBus } from './kafka-event-bus';

/** How long a usage fact waits for others to share its Kafka produce request (the kill -9 loss window). */
export const USAGE_LINGER_MS = 5;

export interface ServiceBusEnv {
  KAFKA_BROKERS: string[];
  KAFKA_TOPIC_PREFIX: string;
}

/** A lingering Kafka bus for `service`, reported under `kafka` on its readiness endpoint. */
export function serviceEventBus(service: string, env: ServiceBusEnv, readiness: Readiness): KafkaEventBus {
  const bus = new KafkaEventBus({
    brokers: env.KAFKA_BROKERS,
    clientId: `unigate-${service}`,
    topicPrefix: env.KAFKA_TOPIC_PREFIX,
    logger: createLogger(service),
    lingerMs: USAGE_LINGER_MS,
  });
  readiness.add('kafka', () => bus.checkReady());
  return bus;
}
