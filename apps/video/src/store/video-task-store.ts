/**
 * Video tasks in the `video` schema. Status changes are compare-and-set (`UPDATE … WHERE status =
 * ANY(from)`): of two pollers that see the same end, one wins, so a task settles once.
 */
import { textCanHold, type Channel, type ModelInfo, type VideoGenerationRequest, type VideoTaskStatus } from '@unigate/contracts';
import type { DataSource } from 'typeorm';
import { jsonbText } from '@unigate/platform/database';

export interface TaskResult {
  content?: { video_url: string };
  usage?: Record<string, unknown>;
  seed?: number | null;
  error?: { code: string; message: string };
  upstream?: unknown;
}

/** A channel as a task row keeps it: never the upstream's API key, which does not belong at rest. */
export type StoredChannel = Omit<Channel, 'api_key'>;

export interface TaskRow {
  id: string;
  account_id: string;
  key_id: string;
  request_id: string;
  hold_id: string | null;
  model: string;
  model_info: ModelInfo;
  /** The channel the task was submitted on, without its API key (looked up again at every poll). */
  channel: StoredChannel | null;
  upstream_id: string | null;
  status: VideoTaskStatus;
  request: VideoGenerationRequest;
  webhook_url: string | null;
  /** The gateway origin the task was submitted on (`https://host`): its webhook links the video there. */
  origin: string | null;
  result: TaskResult;
  polls: number;
  deadline_at: Date;
  created_at: Date;
  updated_at: Date;
  settled_at: Date | null;
}

export type NewTask = Pick<
  TaskRow,
  'id' | 'account_id' | 'key_id' | 'request_id' | 'hold_id' | 'model' | 'model_info' | 'request' | 'webhook_url' | 'deadline_at' | 'origin'
>;

const OPEN: VideoTaskStatus[] = ['queued', 'running'];

/** The rows an UPDATE … RETURNING gave back (TypeORM answers `[rows, affected]` for updates on Postgres). */
function updated<T>(result: unknown): T[] {
  const r = result as unknown[];
  return (Array.isArray(r[0]) ? r[0] : r) as T[];
}

export class VideoTaskStore {
  constructor(private readonly ds: DataSource) {}

  async insert(t: NewTask): Promise<TaskRow> {
    const rows: TaskRow[] = await this.ds.query(
      `INSERT INTO video.tasks (id, account_id, key_id, request_id, hold_id, model, model_info, request, webhook_url, deadline_at, origin, status)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,'queued') RETURNING *`,
      [
        t.id,
        t.account_id,
        t.key_id,
        t.request_id,
        t.hold_id,
        t.model,
        jsonbText(t.model_info),
        jsonbText(t.request),
        t.webhook_url,
        t.deadline_at,
        t.origin,
      ],
    );
    return rows[0]!;
  }

  async submitted(id: string, channel: Channel, upstreamId: string, native: unknown): Promise<TaskRow> {
    const { api_key: _key, ...stored } = channel;
    const rows = updated<TaskRow>(
      await this.ds.query(
        `UPDATE video.tasks SET channel = $2, upstream_id = $3, result = jsonb_build_object('upstream', $4::jsonb), updated_at = now()
       WHERE id = $1 RETURNING *`,
        [id, jsonbText(stored), upstreamId, jsonbText(native)],
      ),
    );
    return rows[0]!;
  }

  /** Drops a task whose submission failed (the edge gives the hold back). */
  async remove(id: string): Promise<void> {
    await this.ds.query(`DELETE FROM video.tasks WHERE id = $1`, [id]);
  }

  async byId(id: string): Promise<TaskRow | null> {
    const rows: TaskRow[] = await this.ds.query(`SELECT * FROM video.tasks WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  /** The account's task by platform id or upstream id; another account's is not found. */
  async lookup(accountId: string, id: string): Promise<TaskRow | null> {
    if (!textCanHold(id)) return null;
    const rows: TaskRow[] = await this.ds.query(
      `SELECT * FROM video.tasks WHERE account_id = $1 AND (id = $2 OR upstream_id = $2) ORDER BY created_at LIMIT 1`,
      [accountId, id],
    );
    return rows[0] ?? null;
  }

  /** The account's newest tasks, newest first (tasks_account_created_idx, read backwards). */
  async recent(accountId: string, limit: number): Promise<TaskRow[]> {
    return this.ds.query(`SELECT * FROM video.tasks WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`, [accountId, limit]);
  }

  /** One more poll, with the upstream's latest record; the status moves only from an open one. */
  async polled(id: string, status: VideoTaskStatus, native: unknown): Promise<{ row: TaskRow; changed: boolean } | null> {
    const rows = updated<TaskRow & { prev: VideoTaskStatus }>(
      await this.ds.query(
        `UPDATE video.tasks t SET polls = t.polls + 1, status = $2, updated_at = now(),
         result = t.result || jsonb_build_object('upstream', $3::jsonb)
       FROM (SELECT status AS prev FROM video.tasks WHERE id = $1) p
       WHERE t.id = $1 AND t.status = ANY($4) RETURNING t.*, p.prev`,
        [id, status, jsonbText(native), OPEN],
      ),
    );
    const row = rows[0];
    return row ? { row, changed: row.prev !== status } : null;
  }

  /** Compare-and-set into a terminal status: the row when this caller won, null when the task had already ended. */
  async finish(id: string, status: VideoTaskStatus, result: TaskResult): Promise<TaskRow | null> {
    const rows = updated<TaskRow>(
      await this.ds.query(
        `UPDATE video.tasks SET status = $2, result = result || $3::jsonb, updated_at = now()
       WHERE id = $1 AND status = ANY($4) RETURNING *`,
        [id, status, jsonbText(result), OPEN],
      ),
    );
    return rows[0] ?? null;
  }

  /**
   * Claims the settlement of an ended task: true for exactly one caller. Claimed before billing is
   * told, so a task is never charged twice; a crash right after the claim leaves the hold to expire
   * (the customer's money comes back) rather than risk a second charge.
   */
  async claimSettlement(id: string): Promise<boolean> {
    const rows = updated<{ id: string }>(
      await this.ds.query(`UPDATE video.tasks SET settled_at = now() WHERE id = $1 AND settled_at IS NULL RETURNING id`, [id]),
    );
    return rows.length === 1;
  }

  /** Tasks not settled and untouched for `idleMs`: the sweeper's work (a lost poll job, a crash before settling). */
  async stuck(idleMs: number, limit = 100): Promise<TaskRow[]> {
    return this.ds.query(
      `SELECT * FROM video.tasks WHERE settled_at IS NULL AND upstream_id IS NOT NULL AND updated_at < now() - ($1 || ' milliseconds')::interval
       ORDER BY updated_at LIMIT $2`,
      [String(idleMs), limit],
    );
  }

  /** Every task not yet settled (a restarting in-process poller picks them up again). */
  async open(limit = 1000): Promise<TaskRow[]> {
    return this.ds.query(`SELECT * FROM video.tasks WHERE settled_at IS NULL AND upstream_id IS NOT NULL ORDER BY created_at LIMIT $1`, [
      limit,
    ]);
  }

  async checkReady(): Promise<void> {
    await this.ds.query('SELECT 1');
  }
}
