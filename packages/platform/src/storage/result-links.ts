import { randomBytes } from 'node:crypto';
import type { ResultStore } from '@unigate/contracts';
import type { ObjectStore } from './object-store';
import { RESULT_LINK_TTL_MS, type LinkSigner } from './signed-links';

const EXTENSIONS: Readonly<Record<string, string>> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'video/mp4': 'mp4' };

/** Results kept in the object store under a random key, answered as signed links valid `ttlMs` (24 h). */
export function resultStore(store: ObjectStore, signer: LinkSigner, ttlMs = RESULT_LINK_TTL_MS): ResultStore {
  return {
    async keep(data, contentType) {
      const key = `${randomBytes(16).toString('hex')}.${EXTENSIONS[contentType] ?? 'png'}`;
      const expiresAt = Date.now() + ttlMs;
      await store.put(key, { data: Buffer.from(data), contentType, expiresAt });
      return signer.link(key, expiresAt);
    },
  };
}
