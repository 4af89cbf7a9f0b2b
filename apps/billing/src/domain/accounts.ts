/** Accounts and credits in the ledger: creating an account, reading it, adding money (idempotent by reference). */
import { randomUUID } from 'node:crypto';
import {
  accountTierSchema,
  errors,
  MAX_BALANCE_MICROS,
  MAX_BALANCE_USD,
  microsToUsd,
  type AccountMoney,
  type AccountTier,
} from '@unigate/contracts';
import { parseBigint } from '@unigate/platform/database';
import type { DataSource, EntityManager } from 'typeorm';
import { findAccountRow, lockAccount, readAccount, type AccountRow } from './account-queries';
import { AccountEntity, CreditEntity } from './entities';
import { requireMicros } from './validate';

export class AccountService {
  constructor(private readonly ds: DataSource) {}

  async createAccount(name: string, creditMicros: number, tier: AccountTier = 'paid'): Promise<AccountEntity> {
    if (typeof name !== 'string' || name.trim() === '' || name.length > 200) {
      throw errors.invalidRequest('name must be 1 to 200 characters', 'name');
    }
    requireMicros(creditMicros, 'credit_micros');
    requireTier(tier);
    return this.ds.transaction((m) => insertAccount(m, name, creditMicros, tier));
  }

  /** Changes the tier (404 for an unknown account). */
  async setTier(accountId: string, tier: AccountTier): Promise<void> {
    requireTier(tier);
    await this.ds.transaction(async (m) => {
      await lockAccount(m, accountId);
      await m.update(AccountEntity, { id: accountId }, { tier });
    });
  }

  read(accountId: string): Promise<AccountRow> {
    return readAccount(this.ds, accountId);
  }

  /** The account's balance and version as the ledger has them; null when it does not exist. */
  async money(accountId: string): Promise<AccountMoney | null> {
    const row = await findAccountRow(this.ds, accountId);
    return row && { balance_micros: row.balanceMicros, version: row.version };
  }

  /** Adds money. With a reference, repeating the same credit changes nothing. */
  async credit(accountId: string, amountMicros: number, reference?: string): Promise<AccountMoney> {
    requireMicros(amountMicros, 'amount_micros', { positive: true });
    return this.ds.transaction(async (m) => {
      const account = await lockAccount(m, accountId);
      requireRoomFor(account.balanceMicros, amountMicros);
      if (!(await insertCredit(m, accountId, amountMicros, reference)))
        return { balance_micros: account.balanceMicros, version: account.version };
      return addToBalance(m, accountId, amountMicros);
    });
  }
}

/**
 * A credit may not take a balance past MAX_BALANCE_MICROS (beyond 2^53 the amounts stop being exact
 * and every read of the account would fail). Checked before the credit is recorded, so a refused one
 * leaves nothing behind; a replay of a credit already applied near the ceiling is refused too.
 */
export function requireRoomFor(balanceMicros: number, amountMicros: number): void {
  if (balanceMicros + amountMicros > MAX_BALANCE_MICROS) {
    throw errors.invalidRequest(`this credit would take the balance past the maximum of ${MAX_BALANCE_USD} USD`, 'amount_usd');
  }
}

/** The gRPC controller passes strings through: check here with the schema the edge used. */
export function requireTier(tier: string): asserts tier is AccountTier {
  const parsed = accountTierSchema.safeParse(tier);
  if (!parsed.success) throw errors.invalidRequest(parsed.error.issues[0]?.message ?? 'invalid tier', 'tier');
}

/**
 * Inside the caller's transaction: adds to the balance and returns it with its new version. (An UPDATE
 * wrapped in a WITH: TypeORM hands back a bare UPDATE's rows together with its row count.)
 */
export async function addToBalance(m: EntityManager, accountId: string, amountMicros: number): Promise<AccountMoney> {
  const [row]: Array<{ balance: string; version: string }> = await m.query(
    `WITH u AS (UPDATE billing.accounts SET balance_micros = balance_micros + $2 WHERE id = $1 RETURNING balance_micros, version)
     SELECT balance_micros::text AS balance, version::text AS version FROM u`,
    [accountId, amountMicros],
  );
  return { balance_micros: parseBigint(row.balance), version: parseBigint(row.version) };
}

/**
 * Inside the caller's transaction: records a credit; false when it repeats one already recorded under
 * its reference. The same reference with another amount is a 409: answering the old balance as if it
 * had been applied would hide a different top-up under a reused reference.
 */
export async function insertCredit(m: EntityManager, accountId: string, amountMicros: number, reference?: string): Promise<boolean> {
  const inserted = await m
    .createQueryBuilder()
    .insert()
    .into(CreditEntity)
    .values({ id: randomUUID(), accountId, amountMicros, reference: reference || null })
    .orIgnore()
    .returning('id')
    .execute();
  if (inserted.raw.length > 0) return true;
  const earlier = await m.findOneByOrFail(CreditEntity, { accountId, reference });
  if (earlier.amountMicros !== amountMicros) {
    throw errors.conflict(
      `reference ${JSON.stringify(reference)} was used by a credit of ${microsToUsd(earlier.amountMicros)} USD; a replay must repeat its amount`,
      'reference',
    );
  }
  return false;
}

/** Inside the caller's transaction: the account row plus its opening credit, if any. */
export async function insertAccount(m: EntityManager, name: string, creditMicros: number, tier: AccountTier): Promise<AccountEntity> {
  const account = m.create(AccountEntity, { id: randomUUID(), name, tier, balanceMicros: creditMicros });
  await m.insert(AccountEntity, account);
  if (creditMicros > 0) {
    await m.insert(CreditEntity, { id: randomUUID(), accountId: account.id, amountMicros: creditMicros, reference: null });
  }
  return account;
}
