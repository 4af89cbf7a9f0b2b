import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Task rows no longer keep their channel's upstream API key (polls look it up in the catalog): the
 * keys rows stored before are removed.
 */
export class ChannelKeysAtRest1739500000000 implements MigrationInterface {
  name = 'ChannelKeysAtRest1739500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE video.tasks SET channel = channel - 'api_key' WHERE channel ? 'api_key'`);
  }

  async down(): Promise<void> {
    // The removed keys are gone; nothing to restore.
  }
}
