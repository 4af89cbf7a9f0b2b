/**
 * One delivery attempt of a task's terminal record to its webhook_url, signed with the Standard
 * Webhooks scheme (`webhook-id` stays the same across retries, so receivers can drop duplicates).
 * Private and loopback targets are refused at connect time, on the address actually used (so DNS
 * rebinding cannot reach them), unless UNIGATE_WEBHOOK_ALLOW_PRIVATE=1.
 * Every attempt is recorded.
 */
import { webhookDeliveries } from '@unigate/platform';
import { safePost } from '@unigate/providers';
import { Webhook } from 'standardwebhooks';
import type { DataSource } from 'typeorm';
import { taskRecord } from '../domain/task-record';
import type { VideoTaskStore } from '../store/video-task-store';
import type { WebhookSecrets } from './webhook-secrets';

const DELIVERY_TIMEOUT_MS = 15_000;

export interface WebhookDeliveryOptions {
  allowPrivate: boolean;
  /**
   * The gateway's public origin, for kept-video links in the payload (they are gateway-relative).
   * Unset: the origin the task was submitted on.
   */
  publicOrigin?: string;
}

export class WebhookDelivery {
  constructor(
    private readonly ds: DataSource,
    private readonly store: VideoTaskStore,
    private readonly secrets: WebhookSecrets,
    private readonly opts: WebhookDeliveryOptions,
  ) {}

  /** True when the receiver accepted (2xx) or there is nothing to deliver; false: try again later. */
  async deliver(taskId: string, attempt: number): Promise<boolean> {
    const row = await this.store.byId(taskId);
    if (!row?.webhook_url) return true;
    let record = taskRecord(row);
    const url = record.content?.video_url;
    const origin = this.opts.publicOrigin ?? row.origin;
    if (url?.startsWith('/') && origin) record = { ...record, content: { ...record.content!, video_url: origin + url } };
    const payload = JSON.stringify({ type: `video.task.${row.status}`, timestamp: new Date().toISOString(), data: record });
    const msgId = `msg_${row.id}`;
    let status: number | null = null;
    let error: string | null = null;
    try {
      const at = new Date();
      const signature = new Webhook(await this.secrets.secretFor(row.account_id)).sign(msgId, at, payload);
      status = await safePost(row.webhook_url, {
        headers: {
          'content-type': 'application/json',
          'webhook-id': msgId,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': signature,
        },
        body: payload,
        timeoutMs: DELIVERY_TIMEOUT_MS,
        allowPrivate: this.opts.allowPrivate,
      });
    } catch (err) {
      error = String(err);
    }
    await this.ds.query(`INSERT INTO video.webhook_attempts (task_id, attempt, status, error) VALUES ($1, $2, $3, $4)`, [
      taskId,
      attempt,
      status,
      error,
    ]);
    const delivered = status !== null && status >= 200 && status < 300;
    webhookDeliveries.inc({ outcome: delivered ? 'delivered' : status === null ? 'failed' : 'rejected' });
    return delivered;
  }
}
