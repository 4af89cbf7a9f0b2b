import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stored conversations as JSON text instead of jsonb: jsonb refuses the escapes `\u0000` and unpaired
 * surrogates (`\ud800`) that a prompt or a model's output may legally carry, which made storing such a
 * response fail after it had been answered. Nothing queries inside the items.
 */
export class ResponsesItemsText1738000000000 implements MigrationInterface {
  name = 'ResponsesItemsText1738000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE chat.responses ALTER COLUMN items TYPE text USING items::text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE chat.responses ALTER COLUMN items TYPE jsonb USING items::jsonb`);
  }
}
