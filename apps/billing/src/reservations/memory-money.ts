/**
 * Accounts' money in process memory, for the embedded deployment where one process is the only
 * writer: the balance (loaded once from the ledger, then kept here), and the live holds against it.
 * Every operation is synchronous once the account is loaded, so in one JavaScript thread each is
 * atomic. Settlement charges the balance here first; the ledger catches up in short batches
 * (embedded-ledger.ts). An account idle for a sweep interval, with nothing held and nothing waiting
 * to be written, leaves memory (`dropIdle`): its next use loads it from the ledger again.
 */
import type { AccountMoneyLoader } from './reservations';

interface Hold {
  amount: number;
  expiresAt: number;
}

export class MemoryAccount {
  reserved = 0;
  readonly holds = new Map<string, Hold>();
  /** Held against or charged since the last idle sweep (a loaded account counts as used). */
  used = true;

  constructor(
    readonly id: string,
    public balance: number,
  ) {}

  /** Money not held, after dropping holds that expired by `now`. */
  available(now: number): number {
    for (const [id, h] of this.holds) if (h.expiresAt <= now) this.drop(id);
    return this.balance - this.reserved;
  }

  /** What live holds reserve at `now`. */
  reservedAt(now: number): number {
    this.available(now);
    return this.reserved;
  }

  /** Reserves `amount` under `holdId` (idempotent); false when the available money is short. */
  hold(holdId: string, amount: number, expiresAt: number, now: number): boolean {
    if (this.holds.has(holdId)) return true;
    this.used = true;
    if (this.available(now) < amount) return false;
    this.holds.set(holdId, { amount, expiresAt });
    this.reserved += amount;
    return true;
  }

  /** Pushes a live hold's expiry out to `expiresAt` (its call still runs); an unknown or expired one stays gone. */
  extend(holdId: string, expiresAt: number, now: number): void {
    const h = this.holds.get(holdId);
    if (h && h.expiresAt > now) h.expiresAt = Math.max(h.expiresAt, expiresAt);
  }

  /** Drops a hold (refunded or settled); unknown holds are fine. */
  drop(holdId: string): void {
    const h = this.holds.get(holdId);
    if (!h) return;
    this.holds.delete(holdId);
    this.reserved -= h.amount;
  }

  /** Keeps at most `amount` of a hold reserved (0 drops it); unknown holds are fine. */
  shrink(holdId: string, amount: number): void {
    const h = this.holds.get(holdId);
    if (!h || amount >= h.amount) return;
    if (amount <= 0) return this.drop(holdId);
    this.reserved -= h.amount - amount;
    h.amount = amount;
  }

  /** Takes `cost` from the balance, at most what is there (the balance never goes below zero). */
  charge(cost: number): number {
    this.used = true;
    const charged = Math.min(cost, this.balance);
    this.balance -= charged;
    return charged;
  }
}

export class MemoryMoney {
  private readonly accounts = new Map<string, MemoryAccount>();
  private readonly loading = new Map<string, Promise<MemoryAccount | null>>();

  constructor(private readonly load: AccountMoneyLoader) {}

  /** The account if it is in memory already (the synchronous path). */
  peek(accountId: string): MemoryAccount | undefined {
    return this.accounts.get(accountId);
  }

  /** Accounts in memory now. */
  get size(): number {
    return this.accounts.size;
  }

  /**
   * Drops from memory every account not used since the last sweep that holds nothing live and that
   * `pending` says has nothing waiting to be written (a charge or credit not committed yet): its
   * balance in memory is then the ledger's, and its next use loads that again. Without this, every
   * account that ever made a call stays in memory (~750 bytes each) for the life of the process.
   * What is left is `size`.
   */
  dropIdle(now: number, pending: (accountId: string) => boolean): void {
    for (const [id, account] of this.accounts) {
      if (account.used || account.reservedAt(now) > 0 || account.holds.size > 0 || pending(id)) {
        account.used = false;
        continue;
      }
      this.accounts.delete(id);
    }
  }

  /** The account, loaded from the ledger on first use; null when it does not exist. */
  async get(accountId: string): Promise<MemoryAccount | null> {
    const known = this.accounts.get(accountId);
    if (known) return known;
    let pending = this.loading.get(accountId);
    if (!pending) {
      pending = this.load(accountId)
        .then((money) => {
          if (!money) return null;
          // A concurrent caller may have put it in memory meanwhile; the first one wins.
          const account = this.accounts.get(accountId) ?? new MemoryAccount(accountId, money.balance_micros);
          this.accounts.set(accountId, account);
          return account;
        })
        .finally(() => this.loading.delete(accountId));
      this.loading.set(accountId, pending);
    }
    return pending;
  }
}
