/** API keys: issue (secret shown once), authenticate by hash, revoke or change (and tell every edge replica). */
import { randomUUID } from 'node:crypto';
import {
  createKeySchema,
  errors,
  MAX_ACTIVE_KEYS,
  parseOrThrow,
  REVOKED_KEYS_LISTED,
  TOPICS,
  type AccountTier,
  type CreateKey,
  type KeyPrincipal,
  type KeySettingsView,
  type KeyStale,
  type KeyView,
  type UpdateKey,
  updateKeySchema,
} from '@unigate/contracts';
import type { EventBus } from '@unigate/platform';
import { IsNull, Not, type DataSource, type EntityManager } from 'typeorm';
import { findAccount, lockAccount } from './account-queries';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key-material';
import { AccountEntity, ApiKeyEntity } from './entities';
import { isUuid } from './validate';

const SHA256_HEX = /^[0-9a-f]{64}$/;

export class KeyService {
  constructor(
    private readonly ds: DataSource,
    private readonly bus: EventBus,
  ) {}

  /** A 409 once the account holds MAX_ACTIVE_KEYS active keys. */
  async createKey(accountId: string, spec: CreateKey): Promise<{ id: string; key: string }> {
    const valid = parseOrThrow(createKeySchema, spec ?? {});
    return this.ds.transaction(async (m) => {
      // The account's row lock: its creates run one at a time, so none can pass the count beside another.
      await lockAccount(m, accountId);
      const [{ active }]: Array<{ active: number }> = await m.query(
        `SELECT count(*)::int AS active FROM billing.api_keys WHERE account_id = $1 AND revoked_at IS NULL`,
        [accountId],
      );
      if (active >= MAX_ACTIVE_KEYS) {
        throw errors.conflict(`This account has ${MAX_ACTIVE_KEYS} active keys, the most it may hold; revoke one to create another.`);
      }
      const key = generateApiKey();
      const id = await insertKey(m, accountId, hashApiKey(key), displayPrefix(key), valid);
      return { id, key };
    });
  }

  /** key hash → who is calling; null for unknown and revoked keys alike. */
  async authenticate(keyHash: string): Promise<KeyPrincipal | null> {
    const hash = typeof keyHash === 'string' ? keyHash.toLowerCase() : '';
    if (!SHA256_HEX.test(hash)) return null;
    // One statement: the key and its account's tier.
    const { entities, raw } = await this.ds.manager
      .createQueryBuilder(ApiKeyEntity, 'k')
      .innerJoin(AccountEntity, 'a', 'a.id = k.account_id')
      .addSelect('a.tier', 'account_tier')
      .where('k.key_hash = :hash AND k.revoked_at IS NULL', { hash })
      .limit(1)
      .getRawAndEntities<{ account_tier: AccountTier }>();
    return entities[0] ? principal(entities[0], raw[0].account_tier) : null;
  }

  /**
   * The account's keys, newest first: every active one (MAX_ACTIVE_KEYS at most) and the
   * REVOKED_KEYS_LISTED revoked most recently, so the list stays bounded however many were revoked.
   * No secrets (only their display prefix).
   */
  async listKeys(accountId: string): Promise<KeyView[]> {
    const [active, revoked] = await this.ds.transaction(async (m) => {
      await findAccount(m, accountId);
      const activeKeys = await m.find(ApiKeyEntity, { where: { accountId, revokedAt: IsNull() } });
      const order = { revokedAt: 'DESC' } as const;
      return [activeKeys, await m.find(ApiKeyEntity, { where: { accountId, revokedAt: Not(IsNull()) }, order, take: REVOKED_KEYS_LISTED })];
    });
    const keys = [...active, ...revoked].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    return keys.map((k) => ({
      id: k.id,
      name: k.name,
      prefix: k.displayPrefix,
      created_at: k.createdAt.toISOString(),
      revoked_at: k.revokedAt?.toISOString() ?? null,
    }));
  }

  /**
   * Marks the key revoked, then publishes the key-stale event so edges drop their cached principal.
   * Revoking again republishes: if the first publish failed, the admin's retry still reaches every edge.
   */
  async revokeKey(keyId: string): Promise<void> {
    const key = isUuid(keyId) ? await this.ds.manager.findOneBy(ApiKeyEntity, { id: keyId }) : null;
    if (!key) throw errors.notFound(`Key ${keyId}`);
    await this.ds.manager
      .createQueryBuilder()
      .update(ApiKeyEntity)
      .set({ revokedAt: () => 'now()' })
      .where('id = :id AND revoked_at IS NULL', { id: keyId })
      .execute();
    await this.publishStale(key);
  }

  /**
   * Changes an active key's settings (absent: unchanged; null: cleared), then publishes the key-stale
   * event as revocation does, so every edge's next request reads the new settings instead of its
   * cached principal. A repeat republishes (idempotent), like revoking again.
   */
  async updateKey(keyId: string, changes: UpdateKey): Promise<KeySettingsView> {
    const valid = parseOrThrow(updateKeySchema, changes ?? {});
    const key = await this.ds.transaction(async (m) => {
      // Locked: a revocation racing this change either lands first (404 here) or after it.
      const found = isUuid(keyId) ? await m.findOne(ApiKeyEntity, { where: { id: keyId }, lock: { mode: 'pessimistic_write' } }) : null;
      if (!found || found.revokedAt) throw errors.notFound(`Key ${keyId}`);
      const set: Partial<ApiKeyEntity> = {};
      if (valid.name !== undefined) set.name = valid.name;
      if (valid.models !== undefined) set.models = valid.models ?? [];
      if (valid.rate_limit_rpm !== undefined) set.rateLimitRpm = valid.rate_limit_rpm;
      if (valid.max_concurrency !== undefined) set.maxConcurrency = valid.max_concurrency;
      await m.update(ApiKeyEntity, { id: found.id }, set);
      return Object.assign(found, set);
    });
    await this.publishStale(key);
    return settingsView(key);
  }

  private async publishStale(key: ApiKeyEntity): Promise<void> {
    const event: KeyStale = { event_id: randomUUID(), key_id: key.id, key_hash: key.keyHash };
    await this.bus.publish(TOPICS.keyStale, key.id, event);
  }
}

function settingsView(key: ApiKeyEntity): KeySettingsView {
  return {
    id: key.id,
    account_id: key.accountId,
    name: key.name,
    prefix: key.displayPrefix,
    models: key.models.length ? key.models : null,
    rate_limit_rpm: key.rateLimitRpm,
    max_concurrency: key.maxConcurrency,
    created_at: key.createdAt.toISOString(),
  };
}

/** Inside the caller's transaction (also used by bootstrap, whose key hash comes from the environment). */
export async function insertKey(m: EntityManager, accountId: string, keyHash: string, prefix: string, spec: CreateKey): Promise<string> {
  const id = randomUUID();
  await m.insert(ApiKeyEntity, {
    id,
    accountId,
    name: spec.name ?? null,
    keyHash,
    displayPrefix: prefix,
    models: spec.models ?? [],
    rateLimitRpm: spec.rate_limit_rpm ?? null,
    maxConcurrency: spec.max_concurrency ?? null,
    revokedAt: null,
  });
  return id;
}

function principal(key: ApiKeyEntity, tier: AccountTier): KeyPrincipal {
  return {
    tier,
    key_id: key.id,
    account_id: key.accountId,
    models: key.models,
    rate_limit_rpm: key.rateLimitRpm,
    max_concurrency: key.maxConcurrency,
  };
}
