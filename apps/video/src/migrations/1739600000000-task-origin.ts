import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The gateway origin a task was submitted on, so its webhook can link the video absolutely. */
export class TaskOrigin1739600000000 implements MigrationInterface {
  name = 'TaskOrigin1739600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE video.tasks ADD COLUMN origin text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE video.tasks DROP COLUMN origin`);
  }
}
