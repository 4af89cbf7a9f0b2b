/**
 * Live money in the distributed deployment: the ledger in Postgres is the truth; Redis holds the
 * copy admissions read (balance, version, holds). Every change to the ledger is pushed to Redis
 * after it commits; a newer version always wins, so a replay or a reordering cannot undo it.
 */
import type { AccountService } from '../domain/accounts';
import type { LiveAccount, LiveMoney } from '../domain/live-money';
import type { AccountMoney } from '@unigate/contracts';
import type { RedisReservations } from '../reservations';

export class RedisMirroredMoney implements LiveMoney {
  constructor(
    private readonly accounts: AccountService,
    private readonly redis: RedisReservations,
  ) {}

  async view(accountId: string): Promise<LiveAccount> {
    const row = await this.accounts.read(accountId);
    return { name: row.name, balance_micros: row.balanceMicros, reserved_micros: await this.reserved(accountId) };
  }

  async reserved(accountId: string): Promise<number> {
    return (await this.redis.read(accountId))?.reserved_micros ?? 0;
  }

  async credit(accountId: string, amountMicros: number, reference?: string): Promise<number> {
    const money = await this.accounts.credit(accountId, amountMicros, reference);
    await this.redis.applyLedger(accountId, money);
    return money.balance_micros;
  }

  releaseHold(accountId: string, holdId: string): Promise<void> {
    return this.redis.release(accountId, holdId);
  }

  load(accountId: string): Promise<AccountMoney | null> {
    return this.accounts.money(accountId);
  }

  /** Charges are taken by writing them to the ledger here: nothing waits in between. */
  written(): Promise<void> {
    return Promise.resolve();
  }

  /** After settlements committed (or were found done): drop their holds, push the balance. */
  afterSettle = (accountId: string, money: AccountMoney, holdIds: readonly string[]): Promise<void> =>
    this.redis.applyLedger(accountId, money, holdIds);
}
