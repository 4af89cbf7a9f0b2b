/** Webhook deliveries as BullMQ jobs (distributed mode): a failed attempt is retried on the schedule of webhook-retry.ts. */
import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import { webhookDeliveries, type Logger } from '@unigate/platform';
import type { WebhookScheduler } from '../domain/video-tasks';
import type { WebhookDelivery } from './webhook-delivery';
import { webhookRetryDelay, type WebhookRetry } from './webhook-retry';

export const WEBHOOK_QUEUE = 'video-webhook';

export class BullWebhooks implements WebhookScheduler {
  private readonly queue: Queue;
  private worker?: Worker;

  constructor(
    private readonly opts: { connection: ConnectionOptions; prefix?: string; retry: WebhookRetry },
    private readonly logger: Logger,
  ) {
    this.queue = new Queue(WEBHOOK_QUEUE, { connection: opts.connection, prefix: opts.prefix });
  }

  async schedule(taskId: string): Promise<void> {
    // One delivery per task: settling twice (a sweep after a crash) does not send twice.
    await this.queue.add(
      'deliver',
      { taskId },
      {
        jobId: `webhook.${taskId}`,
        attempts: this.opts.retry.attempts,
        backoff: { type: 'schedule' },
        removeOnComplete: true,
        removeOnFail: 10_000,
      },
    );
  }

  start(delivery: WebhookDelivery): void {
    this.worker = new Worker(
      WEBHOOK_QUEUE,
      async (job) => {
        const { taskId } = job.data as { taskId: string };
        if (!(await delivery.deliver(taskId, job.attemptsMade + 1))) throw new Error('webhook receiver did not accept');
      },
      {
        connection: this.opts.connection,
        prefix: this.opts.prefix,
        concurrency: 16,
        settings: { backoffStrategy: (attemptsMade: number) => webhookRetryDelay(attemptsMade, this.opts.retry) },
      },
    );
    this.worker.on('failed', (job, err) => {
      this.logger.debug({ job: job?.id, err: String(err) }, 'webhook attempt failed');
      // BullMQ retries until the job's attempts are spent; the last failure is the task's last word.
      if (job && job.attemptsMade >= (job.opts.attempts ?? 1)) {
        webhookDeliveries.inc({ outcome: 'gave_up' });
        this.logger.warn(
          { task: (job.data as { taskId: string }).taskId, attempts: job.attemptsMade },
          'webhook given up: its receiver never accepted the task',
        );
      }
    });
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await this.queue.close();
  }
}
