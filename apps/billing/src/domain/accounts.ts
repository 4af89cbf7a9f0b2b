/** Accounts and credits: creating an account, reading its balance, adding money (idempotent by reference). */
import { randomUUID } from 'node:crypto';
import { errors, microsToUsd, type AccountView } from '@unigate/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import { lockAccount, readAccountMoney } from './account-queries';
import { AccountEntity, CreditEntity } from './entities';
import { requireMicros } from './validate';

export class AccountService {
  constructor(private readonly ds: DataSource) {}

  async createAccount(name: string, creditMicros: number): Promise<AccountView> {
    if (typeof name !== 'string' || name.trim() === '' || name.length > 200) {
      throw errors.invalidRequest('name must be 1 to 200 characters', 'name');
    }
    requireMicros(creditMicros, 'credit_micros');
    return this.ds.transaction(async (m) => {
      const account = await insertAccount(m, name, creditMicros);
      return { id: account.id, name: account.name, balance_usd: microsToUsd(account.balanceMicros), reserved_usd: 0 };
    });
  }

  async getAccount(accountId: string): Promise<AccountView> {
    // One statement, so balance and reservations come from one snapshot.
    const a = await readAccountMoney(this.ds, accountId);
    return { id: a.id, name: a.name, balance_usd: microsToUsd(a.balanceMicros), reserved_usd: microsToUsd(a.reservedMicros) };
  }

  /** Adds money. With a reference, repeating the same credit changes nothing and returns the balance. */
  async credit(accountId: string, amountMicros: number, reference?: string): Promise<{ balance_usd: number }> {
    requireMicros(amountMicros, 'amount_micros', { positive: true });
    return this.ds.transaction(async (m) => {
      const account = await lockAccount(m, accountId);
      const inserted = await m
        .createQueryBuilder()
        .insert()
        .into(CreditEntity)
        .values({ id: randomUUID(), accountId, amountMicros, reference: reference || null })
        .orIgnore()
        .returning('id')
        .execute();
      if (inserted.raw.length === 0) return { balance_usd: microsToUsd(account.balanceMicros) };
      const balance = account.balanceMicros + amountMicros;
      await m.update(AccountEntity, { id: accountId }, { balanceMicros: balance });
      return { balance_usd: microsToUsd(balance) };
    });
  }
}

/** Inside the caller's transaction: the account row plus its opening credit, if any. */
export async function insertAccount(m: EntityManager, name: string, creditMicros: number): Promise<AccountEntity> {
  const account = m.create(AccountEntity, { id: randomUUID(), name, balanceMicros: creditMicros });
  await m.insert(AccountEntity, account);
  if (creditMicros > 0) {
    await m.insert(CreditEntity, { id: randomUUID(), accountId: account.id, amountMicros: creditMicros, reference: null });
  }
  return account;
}
