/**
 * The video service's domain, as the service process and standalone both build it: submissions go
 * through the one runner (packages/providers: failover, the DashScope async adapter), tasks live in
 * the `video` schema and are polled by the scheduler the deployment gives (BullMQ or timers).
 */
import type { BillingPort, CatalogPort, EndpointCall, EndpointPort, UsageSink, VideoTaskPort } from '@unigate/contracts';
import { errors } from '@unigate/contracts';
import { upstreamObservers, type EventBus, type Logger } from '@unigate/platform';
import { EndpointRunner, serviceEndpoints, sharedHttpClient, type ResultStore } from '@unigate/providers';
import type { DataSource } from 'typeorm';
import type { PollTiming } from './domain/backoff';
import { VideoTasks, type PollScheduler, type WebhookScheduler } from './domain/video-tasks';
import { VideoTaskStore } from './store/video-task-store';
import { WebhookDelivery, type WebhookDeliveryOptions } from './webhooks/webhook-delivery';
import { WebhookSecrets } from './webhooks/webhook-secrets';

export interface VideoServiceDeps {
  dataSource: DataSource;
  usage: UsageSink;
  billing: Pick<BillingPort, 'releaseHold'>;
  /** Polls look up their channel's API key here (task rows do not keep it). */
  catalog: Pick<CatalogPort, 'resolve'>;
  bus: EventBus;
  results?: ResultStore;
  polls: PollScheduler;
  webhooks?: WebhookScheduler;
  /** How webhooks are sent (UNIGATE_WEBHOOK_ALLOW_PRIVATE; the public origin for result links). */
  webhookOptions?: WebhookDeliveryOptions;
  timing?: PollTiming;
  timeoutMs?: number;
  logger: Logger;
}

export interface VideoService extends EndpointPort, VideoTaskPort {
  tasks: VideoTasks;
  store: VideoTaskStore;
  /** One webhook attempt; the deployment's scheduler (BullMQ or timers) runs it. */
  delivery: WebhookDelivery;
}

export const DEFAULT_POLL_TIMING: PollTiming = { baseMs: 5_000, maxMs: 60_000 };

export function createVideoService(deps: VideoServiceDeps): VideoService {
  const store = new VideoTaskStore(deps.dataSource);
  const submitter = new EndpointRunner({ endpoints: serviceEndpoints('video'), usage: deps.usage, ...upstreamObservers(deps.logger) });
  const secrets = new WebhookSecrets(deps.dataSource);
  const delivery = new WebhookDelivery(deps.dataSource, store, secrets, deps.webhookOptions ?? { allowPrivate: false });
  const tasks = new VideoTasks({
    store,
    submitter,
    http: sharedHttpClient(),
    usage: deps.usage,
    billing: deps.billing,
    catalog: deps.catalog,
    bus: deps.bus,
    results: deps.results,
    polls: deps.polls,
    webhooks: deps.webhooks,
    timing: deps.timing ?? DEFAULT_POLL_TIMING,
    timeoutMs: deps.timeoutMs,
    logger: deps.logger,
  });
  return {
    tasks,
    store,
    delivery,
    webhookSecret: (accountId) => secrets.secretFor(accountId),
    call: (call: EndpointCall) => {
      if (call.endpoint !== 'videos.generations')
        throw errors.invalidRequest(`The video service does not serve '${call.endpoint}'.`, null, 'unknown_endpoint');
      return tasks.submit(call);
    },
    stream: () => {
      throw errors.invalidRequest('/v1/videos/generations does not stream', 'stream');
    },
    lookup: (accountId, id) => tasks.lookup(accountId, id),
    recent: (accountId, limit) => tasks.recent(accountId, limit),
  };
}
