/** A stored task as the client sees it (SPEC.md §2.6): the platform envelope over the upstream's record. */
import { isTerminalVideoStatus, type VideoTask } from '@unigate/contracts';
import type { TaskRow } from '../store/video-task-store';

const seconds = (d: Date | string) => Math.floor(new Date(d).getTime() / 1000);

export function taskRecord(row: TaskRow): VideoTask {
  const r = row.result;
  const terminal = isTerminalVideoStatus(row.status);
  return {
    id: row.id,
    object: 'video.generation.task',
    status: row.status,
    model: row.model,
    created_at: seconds(row.created_at),
    updated_at: seconds(row.updated_at),
    upstream_id: row.upstream_id,
    ...(row.webhook_url && { webhook_url: row.webhook_url }),
    ...(terminal && r.content && { content: r.content }),
    ...(terminal && { usage: r.usage ?? {}, seed: r.seed ?? null }),
    ...(r.error && { error: r.error }),
    ...(r.upstream !== undefined && { upstream: r.upstream }),
  };
}
