import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `ledger_entries.units`: everything a call was measured in (contracts Usage: tokens, images, video
 * seconds, characters), beside the token columns that existing reports read. A constant default adds
 * the column without rewriting the table.
 */
export class LedgerUnits1736000000000 implements MigrationInterface {
  name = 'LedgerUnits1736000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE billing.ledger_entries ADD COLUMN units jsonb NOT NULL DEFAULT '{}'::jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE billing.ledger_entries DROP COLUMN units`);
  }
}
