/**
 * Reads shared by the money operations. Every function takes the caller's EntityManager: inside a
 * transaction they must run on that transaction's connection (on the embedded store a query on any
 * other connection would wait for the transaction and never return).
 */
import { errors } from '@unigate/contracts';
import { parseBigint } from '@unigate/platform';
import type { EntityManager } from 'typeorm';
import { AccountEntity, HoldEntity } from './entities';
import { isUuid } from './validate';

/** SELECT … FOR UPDATE: the one lock every balance change takes first, so they serialise per account. */
export async function lockAccount(m: EntityManager, accountId: string): Promise<AccountEntity> {
  const account = await lockAccountOrNull(m, accountId);
  if (!account) throw errors.notFound(`Account ${accountId}`);
  return account;
}

export async function lockAccountOrNull(m: EntityManager, accountId: string): Promise<AccountEntity | null> {
  if (!isUuid(accountId)) return null;
  return m.getRepository(AccountEntity).createQueryBuilder('a').setLock('pessimistic_write').where('a.id = :id', { id: accountId }).getOne();
}

export async function findAccount(m: EntityManager, accountId: string): Promise<AccountEntity> {
  const account = isUuid(accountId) ? await m.findOneBy(AccountEntity, { id: accountId }) : null;
  if (!account) throw errors.notFound(`Account ${accountId}`);
  return account;
}

/** Sum of the account's holds that have not expired. */
export async function reservedMicros(m: EntityManager, accountId: string): Promise<number> {
  const row = await m
    .getRepository(HoldEntity)
    .createQueryBuilder('h')
    .select('COALESCE(SUM(h.amount_micros), 0)', 'reserved')
    .where('h.account_id = :accountId AND h.expires_at > now()', { accountId })
    .getRawOne<{ reserved: string }>();
  return parseBigint(row?.reserved ?? '0');
}
