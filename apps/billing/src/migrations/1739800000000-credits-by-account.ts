import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An account's credits by account: quota's all-time usage is credits − balance (the ledger's invariant),
 * read from a handful of credits instead of a sum over every ledger entry the account ever had.
 */
export class CreditsByAccount1739800000000 implements MigrationInterface {
  name = 'CreditsByAccount1739800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX credits_account_idx ON billing.credits (account_id, amount_micros)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX billing.credits_account_idx`);
  }
}
