/** BullMQ connection options from a redis:// URL (workers need maxRetriesPerRequest null). */
import type { ConnectionOptions } from 'bullmq';

export function bullConnection(redisUrl: string): ConnectionOptions {
  const u = new URL(redisUrl);
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    ...(u.password && { password: decodeURIComponent(u.password) }),
    ...(u.username && { username: decodeURIComponent(u.username) }),
    ...(u.pathname.length > 1 && { db: Number(u.pathname.slice(1)) }),
    ...(u.protocol === 'rediss:' && { tls: {} }),
    maxRetriesPerRequest: null,
  };
}
