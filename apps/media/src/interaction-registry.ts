import { createHash } from 'node:crypto';
import type { ObjectStore } from '@unigate/platform';
import type { InteractionRegistry } from '@unigate/providers';

/**
 * Which account each stored gamma interaction belongs to, kept in the object store every media
 * replica shares (a small JSON per interaction, expiring with its retention; the sweeper removes it).
 */
export function interactionRegistry(store: ObjectStore): InteractionRegistry {
  const key = (id: string) => `${createHash('sha256').update(id).digest('hex').slice(0, 32)}.json`;
  return {
    async owner(id) {
      const object = await store.get(key(id));
      if (!object) return undefined;
      const { account_id } = JSON.parse(object.data.toString('utf8')) as { account_id: string };
      return { account_id, expiresAt: object.expiresAt };
    },
    async remember(id, accountId, expiresAt) {
      const data = Buffer.from(JSON.stringify({ interaction_id: id, account_id: accountId }));
      await store.put(key(id), { data, contentType: 'application/json', expiresAt });
    },
  };
}
