import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An account's newest tasks (the dashboard's list) in one index range scan, read backwards; the id
 * breaks ties between tasks made in the same microsecond so the order is stable.
 */
export class TasksByAccount1739000000000 implements MigrationInterface {
  name = 'TasksByAccount1739000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX tasks_account_created_idx ON video.tasks (account_id, created_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX video.tasks_account_created_idx`);
  }
}
