import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The billing schema. Money columns are bigint micro-USD. The unique indexes carry the idempotency
 * rules: one ledger entry per request, one hold per request, one credit per (account, reference),
 * one key per hash.
 */
export class BillingInitial1732240000000 implements MigrationInterface {
  name = 'BillingInitial1732240000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE billing.accounts (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        balance_micros bigint NOT NULL DEFAULT 0 CHECK (balance_micros >= 0),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX accounts_name_idx ON billing.accounts (name)`);

    await q.query(`
      CREATE TABLE billing.api_keys (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES billing.accounts (id),
        name text,
        key_hash text NOT NULL,
        display_prefix text NOT NULL,
        models text[] NOT NULL DEFAULT '{}',
        rate_limit_rpm integer,
        max_concurrency integer,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX api_keys_key_hash_uq ON billing.api_keys (key_hash)`);
    await q.query(`CREATE INDEX api_keys_account_idx ON billing.api_keys (account_id)`);

    await q.query(`
      CREATE TABLE billing.holds (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES billing.accounts (id),
        key_id text NOT NULL,
        request_id text NOT NULL,
        amount_micros bigint NOT NULL CHECK (amount_micros >= 0),
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX holds_request_uq ON billing.holds (request_id)`);
    await q.query(`CREATE INDEX holds_account_expiry_idx ON billing.holds (account_id, expires_at)`);

    await q.query(`
      CREATE TABLE billing.ledger_entries (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES billing.accounts (id),
        request_id text NOT NULL,
        event_id text NOT NULL,
        key_id text NOT NULL,
        model text NOT NULL,
        kind text NOT NULL,
        input_tokens bigint NOT NULL DEFAULT 0,
        cached_input_tokens bigint NOT NULL DEFAULT 0,
        output_tokens bigint NOT NULL DEFAULT 0,
        cost_micros bigint NOT NULL CHECK (cost_micros >= 0),
        charged_micros bigint NOT NULL CHECK (charged_micros >= 0 AND charged_micros <= cost_micros),
        balance_after_micros bigint NOT NULL,
        occurred_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX ledger_entries_request_uq ON billing.ledger_entries (request_id)`);
    await q.query(`CREATE INDEX ledger_entries_account_created_idx ON billing.ledger_entries (account_id, created_at DESC)`);

    await q.query(`
      CREATE TABLE billing.credits (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES billing.accounts (id),
        amount_micros bigint NOT NULL CHECK (amount_micros > 0),
        reference text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE UNIQUE INDEX credits_account_reference_uq ON billing.credits (account_id, reference) WHERE reference IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE billing.credits`);
    await q.query(`DROP TABLE billing.ledger_entries`);
    await q.query(`DROP TABLE billing.holds`);
    await q.query(`DROP TABLE billing.api_keys`);
    await q.query(`DROP TABLE billing.accounts`);
  }
}
