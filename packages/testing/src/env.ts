/** Infrastructure addresses for tests; global setup (packages/testing/jest) makes them answer. */

export const POSTGRES_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** The Kafka test broker of this jest run (`KAFKA_BROKERS`, set by global setup). */
export function kafkaBrokers(): string[] {
  const list = (process.env.KAFKA_BROKERS ?? '')
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  if (list.length === 0) {
    throw new Error('KAFKA_BROKERS is not set: run tests through the root jest config (its global setup starts the Kafka test broker)');
  }
  return list;
}

/** The local Redis (REDIS_URL when set). Share it safely by prefixing keys with uniqueName(). */
export function redisUrl(): string {
  return process.env.REDIS_URL || 'redis://127.0.0.1:6379';
}
