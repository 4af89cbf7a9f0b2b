import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Dashboard users (docs/dashboard.md): one per email, each owning the account created at sign-up. */
export class DashboardUsers1738000000000 implements MigrationInterface {
  name = 'DashboardUsers1738000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE billing.users (
        id uuid PRIMARY KEY,
        email text NOT NULL UNIQUE CHECK (email = lower(email)),
        password_hash text NOT NULL,
        account_id uuid NOT NULL REFERENCES billing.accounts(id),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE billing.users`);
  }
}
