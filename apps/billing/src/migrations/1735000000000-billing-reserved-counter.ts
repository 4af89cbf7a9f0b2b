import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `accounts.reserved_micros`: the sum of the account's holds, kept by the database itself so that
 * placing a hold is one statement on one row instead of a transaction that sums every hold
 * (docs/billing.md).
 *
 * Statement-level triggers on `holds` (with transition tables, so a bulk delete adjusts each account
 * once) maintain the invariant `reserved_micros = SUM(holds.amount_micros)` for every writer: this
 * code, a replica still running the previous release during a rolling upgrade, an operator's manual
 * DELETE. TRUNCATE bypasses row triggers, so it resets every counter.
 *
 * Atomic with respect to concurrent writers: ADD COLUMN takes ACCESS EXCLUSIVE on accounts and
 * CREATE TRIGGER takes SHARE ROW EXCLUSIVE on holds, so no hold can be written between the backfill
 * and the triggers taking over (old replicas wait for the commit, which is quick: ADD COLUMN with a
 * constant default does not rewrite the table).
 */
export class BillingReservedCounter1735000000000 implements MigrationInterface {
  name = 'BillingReservedCounter1735000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE billing.accounts
        ADD COLUMN reserved_micros bigint NOT NULL DEFAULT 0
        CONSTRAINT accounts_reserved_micros_check CHECK (reserved_micros >= 0)`);

    await q.query(`
      CREATE FUNCTION billing.holds_maintain_reserved() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'TRUNCATE' THEN
          UPDATE billing.accounts SET reserved_micros = 0 WHERE reserved_micros <> 0;
          RETURN NULL;
        END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          UPDATE billing.accounts a SET reserved_micros = a.reserved_micros - d.amount
            FROM (SELECT account_id, SUM(amount_micros) AS amount FROM old_holds GROUP BY account_id) d
            WHERE a.id = d.account_id;
        END IF;
        IF TG_OP IN ('UPDATE', 'INSERT') THEN
          UPDATE billing.accounts a SET reserved_micros = a.reserved_micros + d.amount
            FROM (SELECT account_id, SUM(amount_micros) AS amount FROM new_holds GROUP BY account_id) d
            WHERE a.id = d.account_id;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER holds_reserved_insert AFTER INSERT ON billing.holds
        REFERENCING NEW TABLE AS new_holds
        FOR EACH STATEMENT EXECUTE FUNCTION billing.holds_maintain_reserved()`);
    await q.query(`
      CREATE TRIGGER holds_reserved_update AFTER UPDATE ON billing.holds
        REFERENCING OLD TABLE AS old_holds NEW TABLE AS new_holds
        FOR EACH STATEMENT EXECUTE FUNCTION billing.holds_maintain_reserved()`);
    await q.query(`
      CREATE TRIGGER holds_reserved_delete AFTER DELETE ON billing.holds
        REFERENCING OLD TABLE AS old_holds
        FOR EACH STATEMENT EXECUTE FUNCTION billing.holds_maintain_reserved()`);
    await q.query(`
      CREATE TRIGGER holds_reserved_truncate AFTER TRUNCATE ON billing.holds
        FOR EACH STATEMENT EXECUTE FUNCTION billing.holds_maintain_reserved()`);

    // Every existing hold, expired ones included: the counter is the sum of the rows, and the sweeper
    // (or the next hold on the account) deletes expired rows, which gives their money back.
    await q.query(`
      UPDATE billing.accounts a SET reserved_micros = s.amount
        FROM (SELECT account_id, SUM(amount_micros) AS amount FROM billing.holds GROUP BY account_id) s
        WHERE a.id = s.account_id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER holds_reserved_truncate ON billing.holds`);
    await q.query(`DROP TRIGGER holds_reserved_delete ON billing.holds`);
    await q.query(`DROP TRIGGER holds_reserved_update ON billing.holds`);
    await q.query(`DROP TRIGGER holds_reserved_insert ON billing.holds`);
    await q.query(`DROP FUNCTION billing.holds_maintain_reserved()`);
    await q.query(`ALTER TABLE billing.accounts DROP COLUMN reserved_micros`);
  }
}
