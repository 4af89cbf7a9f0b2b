import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stored responses as a chain: a response keeps the id of the one it continued and only its own turn
 * (its new input and its output), instead of a copy of the whole conversation, which made a
 * conversation of n turns store n copies of itself. Rows written before keep their whole
 * conversation and no previous id: they read back unchanged, and a continuation of one links to it.
 */
export class ResponsesChain1739000000000 implements MigrationInterface {
  name = 'ResponsesChain1739000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE chat.responses ADD COLUMN previous_id text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE chat.responses DROP COLUMN previous_id`);
  }
}
