/**
 * Where an account's live money is besides the ledger: the holds against it (Redis in distributed
 * mode, memory in standalone), and, in standalone, charges already taken but not yet written. The
 * billing service reads and changes money through this, so each deployment keeps one truth.
 */
import type { AccountMoney } from '@unigate/contracts';

export interface LiveAccount {
  name: string;
  balance_micros: number;
  reserved_micros: number;
}

export interface LiveMoney {
  /** The account's balance and reservations right now (404 when it does not exist). */
  view(accountId: string): Promise<LiveAccount>;
  /** What its holds reserve right now. */
  reserved(accountId: string): Promise<number>;
  /** Adds money (idempotent by reference) and returns the balance after it. */
  credit(accountId: string, amountMicros: number, reference?: string): Promise<number>;
  /** Gives a hold back (a call that failed after it was answered, e.g. a video task). */
  releaseHold(accountId: string, holdId: string): Promise<void>;
  /** The ledger's money of an account, for a reservation store that does not hold it yet. */
  load(accountId: string): Promise<AccountMoney | null>;
  /**
   * Resolves once every charge taken so far is written to the ledger, so a read of the ledger that
   * follows sees its own calls (standalone writes charges in group commits, after the answer).
   */
  written(): Promise<void>;
}
