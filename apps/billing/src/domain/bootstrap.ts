/**
 * UNIGATE_BOOTSTRAP_KEY: make sure an account named `bootstrap` holding that key exists. Idempotent
 * across restarts and replicas: serialised on a transaction-scoped advisory lock, the credit is
 * applied only when the account is first created, and an existing key is never re-created — so a key
 * an operator revoked stays revoked.
 */
import type { Logger } from '@unigate/platform';
import type { DataSource } from 'typeorm';
import { insertAccount } from './accounts';
import { displayPrefix, hashApiKey } from './api-key-material';
import { AccountEntity, ApiKeyEntity } from './entities';
import { insertKey } from './keys';
import { requireMicros } from './validate';

export const BOOTSTRAP_ACCOUNT_NAME = 'bootstrap';

export interface BootstrapResult {
  account_id: string;
  key_id: string;
  created_account: boolean;
  created_key: boolean;
}

export async function ensureBootstrap(ds: DataSource, logger: Logger, apiKey: string, creditMicros: number): Promise<BootstrapResult> {
  if (!apiKey.startsWith('sk-') || apiKey.length < 20)
    throw new Error('UNIGATE_BOOTSTRAP_KEY must look like sk-… (at least 20 characters)');
  requireMicros(creditMicros, 'UNIGATE_BOOTSTRAP_CREDIT_USD');
  const keyHash = hashApiKey(apiKey);

  const result = await ds.transaction(async (m): Promise<BootstrapResult> => {
    await m.query(`SELECT pg_advisory_xact_lock(hashtext('unigate:billing:bootstrap'))`);
    const key = await m.findOneBy(ApiKeyEntity, { keyHash });
    if (key) {
      if (key.revokedAt) logger.warn({ key_id: key.id }, 'the bootstrap key was revoked; leaving it revoked');
      return { account_id: key.accountId, key_id: key.id, created_account: false, created_key: false };
    }
    let account = await m.findOne(AccountEntity, { where: { name: BOOTSTRAP_ACCOUNT_NAME }, order: { createdAt: 'ASC' } });
    const createdAccount = !account;
    account ??= await insertAccount(m, BOOTSTRAP_ACCOUNT_NAME, creditMicros, 'paid');
    const keyId = await insertKey(m, account.id, keyHash, displayPrefix(apiKey), { name: BOOTSTRAP_ACCOUNT_NAME });
    return { account_id: account.id, key_id: keyId, created_account: createdAccount, created_key: true };
  });
  if (result.created_key)
    logger.info(
      { account_id: result.account_id, key_id: result.key_id, created_account: result.created_account },
      'bootstrap key installed',
    );
  return result;
}
