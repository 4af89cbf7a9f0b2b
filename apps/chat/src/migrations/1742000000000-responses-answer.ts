import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The response as it was answered (JSON text, like `items`), so GET /v1/responses/{id} can give it
 * back. Rows stored before have none: they can still be continued, not read back.
 */
export class ResponsesAnswer1742000000000 implements MigrationInterface {
  name = 'ResponsesAnswer1742000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE chat.responses ADD COLUMN response text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE chat.responses DROP COLUMN response`);
  }
}
