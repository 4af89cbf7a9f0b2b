let counter = 0;

/**
 * A name no other test, worker or concurrent jest run on this machine uses: lower case [a-z0-9_] so it
 * is valid as a Postgres database/schema name, a Kafka topic or consumer group, and a Redis key prefix.
 * Short enough (prefix + ~20 chars) to stay under Postgres' 63-character identifier limit.
 */
export function uniqueName(prefix = 't'): string {
  counter += 1;
  const clean =
    prefix
      .toLowerCase()
      .replace(/[^a-z0-9_]/g, '_')
      .slice(0, 36) || 't';
  const random = Math.floor(Math.random() * 36 ** 4)
    .toString(36)
    .padStart(4, '0');
  return `${clean}_${process.pid.toString(36)}${Date.now().toString(36)}${counter.toString(36)}${random}`;
}
