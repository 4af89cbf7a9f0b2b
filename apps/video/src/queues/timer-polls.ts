/**
 * Polls on in-process timers: standalone's scheduler (one process, no Redis). On start the open tasks
 * are picked up again, so a restart loses nothing; the compare-and-set in the store keeps a task
 * from settling twice.
 */
import type { Logger } from '@unigate/platform';
import type { PollScheduler } from '../domain/video-tasks';
import type { TaskRow } from '../store/video-task-store';

/** After a poll that threw (the database, the object store): try again after this. */
const RETRY_MS = 5_000;

export type PollRun = (taskId: string) => Promise<number | null>;

export class TimerPolls implements PollScheduler {
  private readonly timers = new Set<NodeJS.Timeout>();
  private run?: PollRun;
  private stopped = false;

  constructor(private readonly logger: Logger) {}

  start(run: PollRun, open: readonly Pick<TaskRow, 'id' | 'polls'>[]): void {
    this.run = run;
    for (const task of open) void this.schedule(task, 0);
  }

  async schedule(task: Pick<TaskRow, 'id' | 'polls'>, delayMs: number): Promise<void> {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.tick(task);
    }, delayMs);
    this.timers.add(timer);
  }

  private async tick(task: Pick<TaskRow, 'id' | 'polls'>): Promise<void> {
    let next: number | null;
    try {
      next = this.run ? await this.run(task.id) : RETRY_MS;
    } catch (err) {
      this.logger.warn({ task: task.id, err: String(err) }, 'video poll failed; retrying');
      next = RETRY_MS;
    }
    if (next !== null) await this.schedule({ id: task.id, polls: task.polls + 1 }, next);
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
