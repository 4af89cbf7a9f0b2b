import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Holds leave Postgres (docs/billing.md): they live in Redis (distributed) or process memory
 * (standalone), checked in the same atomic step as the rate limits, so no request writes to the
 * database before its upstream call. What stays here is the truth — accounts, credits, the ledger —
 * and `accounts.version`, bumped by the database on every balance change, so a copy of the balance
 * elsewhere can tell a newer value from an older one (a replayed or reordered update never wins).
 */
export class HoldsLeavePostgres1737000000000 implements MigrationInterface {
  name = 'HoldsLeavePostgres1737000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE billing.accounts ADD COLUMN version bigint NOT NULL DEFAULT 0`);
    await q.query(`
      CREATE FUNCTION billing.accounts_bump_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.version := OLD.version + 1;
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER accounts_version BEFORE UPDATE OF balance_micros ON billing.accounts
        FOR EACH ROW WHEN (NEW.balance_micros IS DISTINCT FROM OLD.balance_micros)
        EXECUTE FUNCTION billing.accounts_bump_version()`);
    await q.query(`DROP TABLE billing.holds`);
    await q.query(`DROP FUNCTION billing.holds_maintain_reserved()`);
    await q.query(`ALTER TABLE billing.accounts DROP COLUMN reserved_micros`);
  }

  async down(_q: QueryRunner): Promise<void> {
    throw new Error('HoldsLeavePostgres1737000000000 cannot be reverted: holds no longer live in Postgres');
  }
}
