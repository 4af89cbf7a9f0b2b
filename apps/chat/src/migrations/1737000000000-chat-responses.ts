import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The chat schema: stored Responses (POST /v1/responses with `store`), looked up by id within an
 * account. created_at is indexed for a retention sweep.
 */
export class ChatResponses1737000000000 implements MigrationInterface {
  name = 'ChatResponses1737000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE chat.responses (
        id text PRIMARY KEY,
        account_id text NOT NULL,
        model text NOT NULL,
        items jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX responses_account_idx ON chat.responses (account_id)`);
    await q.query(`CREATE INDEX responses_created_idx ON chat.responses (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE chat.responses`);
  }
}
