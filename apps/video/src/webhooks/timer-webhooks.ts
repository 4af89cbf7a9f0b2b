/** Webhook deliveries on in-process timers (standalone): the same retry schedule as the BullMQ queue. */
import { webhookDeliveries, type Logger } from '@unigate/platform';
import type { WebhookScheduler } from '../domain/video-tasks';
import type { WebhookDelivery } from './webhook-delivery';
import { webhookRetryDelay, type WebhookRetry } from './webhook-retry';

export class TimerWebhooks implements WebhookScheduler {
  private readonly timers = new Set<NodeJS.Timeout>();
  private delivery?: WebhookDelivery;

  constructor(
    private readonly retry: WebhookRetry,
    private readonly logger: Logger,
  ) {}

  attach(delivery: WebhookDelivery): void {
    this.delivery = delivery;
  }

  async schedule(taskId: string, attempt = 1, delayMs = 0): Promise<void> {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(taskId, attempt);
    }, delayMs);
    this.timers.add(timer);
  }

  private async attempt(taskId: string, attempt: number): Promise<void> {
    const ok = await this.delivery?.deliver(taskId, attempt).catch((err: unknown) => {
      this.logger.warn({ task: taskId, err: String(err) }, 'webhook delivery failed');
      return false;
    });
    if (ok) return;
    if (attempt < this.retry.attempts) await this.schedule(taskId, attempt + 1, webhookRetryDelay(attempt, this.retry));
    else this.gaveUp(taskId, attempt);
  }

  private gaveUp(taskId: string, attempts: number): void {
    webhookDeliveries.inc({ outcome: 'gave_up' });
    this.logger.warn({ task: taskId, attempts }, 'webhook given up: its receiver never accepted the task');
  }

  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
