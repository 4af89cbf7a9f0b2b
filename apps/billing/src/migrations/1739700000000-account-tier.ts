import type { MigrationInterface, QueryRunner } from 'typeorm';

/** An account's tier (docs/billing.md "Tiers"): existing accounts are paid, as they were treated so far. */
export class AccountTier1739700000000 implements MigrationInterface {
  name = 'AccountTier1739700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE billing.accounts ADD COLUMN tier text NOT NULL DEFAULT 'paid' CHECK (tier IN ('paid', 'free'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE billing.accounts DROP COLUMN tier`);
  }
}
