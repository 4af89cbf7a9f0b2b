/**
 * Polls as BullMQ jobs on Redis (distributed mode): any number of video replicas work the queue. A
 * job is one poll; the next is a new delayed job. A worker killed mid-poll leaves its job active
 * without a lock: BullMQ's stalled-job check hands it to another worker, and the store's
 * compare-and-set keeps the task from settling twice. A repeatable sweeper job re-enqueues tasks
 * nobody has touched for a while (a lost job, a crash between ending and settling).
 */
import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import type { Logger } from '@unigate/platform';
import type { PollScheduler } from '../domain/video-tasks';
import type { TaskRow } from '../store/video-task-store';

export const POLL_QUEUE = 'video-poll';
const SWEEP_JOB = 'sweep';

export interface BullPollsOptions {
  connection: ConnectionOptions;
  /** Redis key prefix (tests run side by side). */
  prefix?: string;
  /** How long an unanswered lock means a dead worker (BullMQ lockDuration). */
  lockMs?: number;
  /** How often the sweeper runs, and how idle a task must be to be swept. */
  sweepEveryMs: number;
  concurrency?: number;
}

export interface PollWork {
  poll(taskId: string): Promise<number | null>;
  stuck(idleMs: number): Promise<Array<Pick<TaskRow, 'id' | 'polls'>>>;
}

export class BullPolls implements PollScheduler {
  private readonly queue: Queue;
  private worker?: Worker;

  constructor(
    private readonly opts: BullPollsOptions,
    private readonly logger: Logger,
  ) {
    this.queue = new Queue(POLL_QUEUE, { connection: opts.connection, prefix: opts.prefix });
  }

  async schedule(task: Pick<TaskRow, 'id' | 'polls'>, delayMs: number): Promise<void> {
    // One job per (task, poll number): a sweep of a task whose job is still waiting adds nothing.
    await this.queue.add(
      'poll',
      { taskId: task.id, polls: task.polls },
      {
        jobId: `${task.id}.${task.polls}`,
        delay: delayMs,
        removeOnComplete: true,
        removeOnFail: 1000,
        attempts: 10,
        backoff: { type: 'exponential', delay: 1000 },
      },
    );
  }

  async start(work: PollWork): Promise<void> {
    await this.queue.upsertJobScheduler(SWEEP_JOB, { every: this.opts.sweepEveryMs }, { name: SWEEP_JOB });
    this.worker = new Worker(
      POLL_QUEUE,
      async (job) => {
        if (job.name === SWEEP_JOB) {
          for (const task of await work.stuck(this.opts.sweepEveryMs)) await this.schedule(task, 0);
          return;
        }
        const { taskId, polls } = job.data as { taskId: string; polls: number };
        const next = await work.poll(taskId);
        if (next !== null) await this.schedule({ id: taskId, polls: polls + 1 }, next);
      },
      {
        connection: this.opts.connection,
        prefix: this.opts.prefix,
        concurrency: this.opts.concurrency ?? 16,
        lockDuration: this.opts.lockMs ?? 30_000,
        stalledInterval: this.opts.lockMs ?? 30_000,
      },
    );
    this.worker.on('failed', (job, err) => this.logger.warn({ job: job?.id, err: String(err) }, 'video poll job failed'));
  }

  /** `force`: stop at once, abandoning active jobs (what a killed process does). */
  async close(force = false): Promise<void> {
    await this.worker?.close(force);
    await this.queue.close();
  }
}
