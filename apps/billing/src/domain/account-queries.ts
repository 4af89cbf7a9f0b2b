/**
 * Reads shared by the money operations. Every function takes the caller's EntityManager (or the
 * DataSource): inside a transaction they must run on that transaction's connection (on the embedded
 * store a query on any other connection would wait for the transaction and never return).
 */
import { errors } from '@unigate/contracts';
import { parseBigint, preparedStatement, queryPrepared, type PreparedStatement } from '@unigate/platform';
import { DataSource, type EntityManager, type ObjectLiteral } from 'typeorm';
import { AccountEntity } from './entities';
import { isUuid } from './validate';

export type Db = DataSource | EntityManager;

/** Runs a hot-path statement: prepared (parsed and planned once per connection) on the DataSource, plain inside a transaction. */
export function run<T extends ObjectLiteral>(db: Db, stmt: PreparedStatement, params: unknown[]): Promise<T[]> {
  return db instanceof DataSource ? queryPrepared<T>(db, stmt, params) : db.query(stmt.text, params);
}

/** SELECT … FOR UPDATE: balance changes outside the hot path (credits) lock the row first, like every money statement. */
export async function lockAccount(m: EntityManager, accountId: string): Promise<AccountEntity> {
  const account = isUuid(accountId)
    ? await m
        .getRepository(AccountEntity)
        .createQueryBuilder('a')
        .setLock('pessimistic_write')
        .where('a.id = :id', { id: accountId })
        .getOne()
    : null;
  if (!account) throw errors.notFound(`Account ${accountId}`);
  return account;
}

export async function findAccount(m: EntityManager, accountId: string): Promise<AccountEntity> {
  const account = isUuid(accountId) ? await m.findOneBy(AccountEntity, { id: accountId }) : null;
  if (!account) throw errors.notFound(`Account ${accountId}`);
  return account;
}

/**
 * What the account's holds reserve right now, as an SQL expression over `billing.accounts a`: the
 * trigger-kept counter minus holds that expired but were not swept yet (they no longer count). Uses
 * the (account_id, expires_at) index; normally there is nothing expired and this reads no row.
 */
export const RESERVED_NOW_SQL = `(a.reserved_micros - COALESCE((
  SELECT SUM(x.amount_micros) FROM billing.holds x WHERE x.account_id = a.id AND x.expires_at <= now()), 0))`;

export interface AccountMoney {
  id: string;
  name: string;
  balanceMicros: number;
  reservedMicros: number;
}

const READ_MONEY = preparedStatement(
  'billing_read_account_money',
  `SELECT a.id, a.name, a.balance_micros::text AS balance, ${RESERVED_NOW_SQL}::text AS reserved FROM billing.accounts a WHERE a.id = $1`,
);

/** Balance and current reservations in one statement (one snapshot), or a 404. */
export async function readAccountMoney(db: Db, accountId: string): Promise<AccountMoney> {
  const rows = isUuid(accountId)
    ? await run<{ id: string; name: string; balance: string; reserved: string }>(db, READ_MONEY, [accountId])
    : [];
  if (rows.length === 0) throw errors.notFound(`Account ${accountId}`);
  const [r] = rows;
  return { id: r.id, name: r.name, balanceMicros: parseBigint(r.balance), reservedMicros: parseBigint(r.reserved) };
}
