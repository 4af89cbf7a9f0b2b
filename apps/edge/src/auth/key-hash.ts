import { createHash } from 'node:crypto';

/** Keys are stored and looked up only as SHA-256 hex digests. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
