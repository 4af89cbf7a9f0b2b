import { randomBytes } from 'node:crypto';

/**
 * Ids unique across processes, replicas and restarts without drawing random bytes on every call:
 * `bytes` random bytes drawn once (hex), then a base-36 sequence padded to `pad` characters.
 */
export function processIds(bytes: number, pad = 0): () => string {
  const prefix = randomBytes(bytes).toString('hex');
  let sequence = 0;
  return () => {
    sequence += 1;
    return `${prefix}${sequence.toString(36).padStart(pad, '0')}`;
  };
}
