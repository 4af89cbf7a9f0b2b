/**
 * Reads shared by the money operations. Every function takes the caller's EntityManager (or the
 * DataSource): inside a transaction they must run on that transaction's connection (on the embedded
 * store a query on any other connection would wait for the transaction and never return).
 */
import { errors } from '@unigate/contracts';
import { parseBigint, preparedStatement, queryPrepared, type PreparedStatement } from '@unigate/platform/database';
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

export interface AccountRow {
  id: string;
  name: string;
  balanceMicros: number;
  /** Grows with every balance change (a database trigger), so copies of the balance can be ordered. */
  version: number;
}

const READ_ACCOUNT = preparedStatement(
  'billing_read_account',
  `SELECT a.id, a.name, a.balance_micros::text AS balance, a.version::text AS version FROM billing.accounts a WHERE a.id = $1`,
);

/** The account's row, or null when there is none. */
export async function findAccountRow(db: Db, accountId: string): Promise<AccountRow | null> {
  const rows = isUuid(accountId)
    ? await run<{ id: string; name: string; balance: string; version: string }>(db, READ_ACCOUNT, [accountId])
    : [];
  if (rows.length === 0) return null;
  const [r] = rows;
  return { id: r.id, name: r.name, balanceMicros: parseBigint(r.balance), version: parseBigint(r.version) };
}

/** The account's row, or a 404. */
export async function readAccount(db: Db, accountId: string): Promise<AccountRow> {
  const row = await findAccountRow(db, accountId);
  if (!row) throw errors.notFound(`Account ${accountId}`);
  return row;
}
