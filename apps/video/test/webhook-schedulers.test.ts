/**
 * Both webhook schedulers (BullMQ on the local Redis for distributed, timers for standalone) retry a
 * delivery the receiver did not accept on the retry schedule, and give a task up once its last
 * attempt failed: counted in `unigate_webhook_deliveries_total{outcome="gave_up"}` once, not for a
 * task whose receiver accepted a retry.
 */
import { createLogger, webhookDeliveries } from '@unigate/platform';
import { redisUrl, uniqueName, waitFor } from '@unigate/testing';
import { bullConnection } from '../src/redis-connection';
import { BullWebhooks } from '../src/webhooks/bull-webhooks';
import { TimerWebhooks } from '../src/webhooks/timer-webhooks';
import type { WebhookDelivery } from '../src/webhooks/webhook-delivery';
import type { WebhookRetry } from '../src/webhooks/webhook-retry';

const logger = createLogger('video-test', 'silent');
const retry: WebhookRetry = { baseMs: 20, maxMs: 50, attempts: 3 };

interface Scheduler {
  schedule(taskId: string): Promise<void>;
  close(): Promise<void>;
}

const schedulers: Array<[string, (delivery: WebhookDelivery) => Scheduler]> = [
  [
    'BullWebhooks',
    (delivery) => {
      const bull = new BullWebhooks({ connection: bullConnection(redisUrl()), prefix: uniqueName('webhooks'), retry }, logger);
      bull.start(delivery);
      return bull;
    },
  ],
  [
    'TimerWebhooks',
    (delivery) => {
      const timers = new TimerWebhooks(retry, logger);
      timers.attach(delivery);
      return { schedule: (id) => timers.schedule(id), close: async () => timers.stop() };
    },
  ],
];

const gaveUp = async () => (await webhookDeliveries.get()).values.find((v) => v.labels.outcome === 'gave_up')?.value ?? 0;

describe.each(schedulers)('%s', (_name, open) => {
  let scheduler: Scheduler | undefined;
  afterEach(async () => {
    await scheduler?.close();
    scheduler = undefined;
  });

  /** Delivers through a receiver that accepts from attempt `acceptFrom` on (never: Infinity); the attempts made. */
  function receiverAccepting(acceptFrom: number) {
    const attempts: number[] = [];
    const delivery = {
      deliver: async (_taskId: string, attempt: number) => {
        attempts.push(attempt);
        return attempt >= acceptFrom;
      },
    } as unknown as WebhookDelivery;
    return { attempts, delivery };
  }

  it('gives a task up once its last attempt failed, counted once', async () => {
    const before = await gaveUp();
    const { attempts, delivery } = receiverAccepting(Infinity);
    scheduler = open(delivery);
    await scheduler.schedule(uniqueName('task'));
    await waitFor('the task given up', async () => (await gaveUp()) > before, 10_000, 20);
    await new Promise((r) => setTimeout(r, 200)); // nothing after the last attempt
    expect(attempts).toEqual([1, 2, 3]);
    expect((await gaveUp()) - before).toBe(1);
  });

  it('does not give up a task whose receiver accepted a retry', async () => {
    const before = await gaveUp();
    const { attempts, delivery } = receiverAccepting(2);
    scheduler = open(delivery);
    await scheduler.schedule(uniqueName('task'));
    await waitFor('the retry accepted', async () => attempts.length === 2, 10_000, 20);
    await new Promise((r) => setTimeout(r, 300));
    expect(attempts).toEqual([1, 2]);
    expect((await gaveUp()) - before).toBe(0);
  });
});
