import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The video schema: tasks (looked up by platform id or upstream id within an account; non-terminal
 * ones found by the sweeper) and each account's webhook signing secret.
 */
export class VideoTasks1738000000000 implements MigrationInterface {
  name = 'VideoTasks1738000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE video.tasks (
        id text PRIMARY KEY,
        account_id text NOT NULL,
        key_id text NOT NULL,
        request_id text NOT NULL,
        hold_id text,
        model text NOT NULL,
        model_info jsonb NOT NULL,
        channel jsonb,
        upstream_id text,
        status text NOT NULL,
        request jsonb NOT NULL,
        webhook_url text,
        result jsonb NOT NULL DEFAULT '{}'::jsonb,
        polls integer NOT NULL DEFAULT 0,
        deadline_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        settled_at timestamptz
      )`);
    await q.query(`CREATE INDEX tasks_account_upstream_idx ON video.tasks (account_id, upstream_id)`);
    await q.query(`CREATE INDEX tasks_open_idx ON video.tasks (updated_at) WHERE settled_at IS NULL`);
    await q.query(`
      CREATE TABLE video.webhook_secrets (
        account_id text PRIMARY KEY,
        secret text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE video.webhook_attempts (
        id bigserial PRIMARY KEY,
        task_id text NOT NULL,
        attempt integer NOT NULL,
        status integer,
        error text,
        at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX webhook_attempts_task_idx ON video.webhook_attempts (task_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE video.webhook_attempts`);
    await q.query(`DROP TABLE video.webhook_secrets`);
    await q.query(`DROP TABLE video.tasks`);
  }
}
