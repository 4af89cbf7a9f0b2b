import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import {
  brokersList,
  createLogger,
  type EventBus,
  publishUsage,
  readEnv,
  Readiness,
  resultStorageFromEnv,
  resultStore,
  serviceEventBus,
  UsageRecorder,
} from '@unigate/platform';
import { endpointServiceHandlers, GRPC_HANDLERS, GrpcCatalogClient, videoTaskHandlers } from '@unigate/platform/distributed';
import { z } from 'zod';
import { grpcHoldReleaser } from './billing-client';
import { createVideoService, DEFAULT_POLL_TIMING, type VideoService } from './create-video';
import { BullPolls } from './queues/bull-polls';
import { BullWebhooks } from './webhooks/bull-webhooks';
import { DEFAULT_WEBHOOK_RETRY } from './webhooks/webhook-retry';
import { bullConnection } from './redis-connection';
import { openVideoDataSource } from './store/video-data-source';

const env = z.object({
  DATABASE_URL: z.string().min(1, 'DATABASE_URL is required (video tasks live in the video schema)'),
  REDIS_URL: z.string().regex(/^rediss?:\/\/\S+$/, 'REDIS_URL must be a redis:// URL (BullMQ pollers)'),
  BILLING_GRPC_URL: z.string().min(1),
  /** Polls look up their channel's API key in the catalog: task rows do not keep it. */
  CATALOG_GRPC_URL: z.string().min(1, 'CATALOG_GRPC_URL is required (video polls look up channel keys in the catalog)'),
  KAFKA_BROKERS: brokersList,
  KAFKA_TOPIC_PREFIX: z.string().default(''),
  /** Redis key prefix of the BullMQ queues (deployments sharing one Redis). */
  UNIGATE_VIDEO_QUEUE_PREFIX: z.string().default('unigate'),
  UNIGATE_VIDEO_POLL_BASE_MS: z.coerce.number().int().positive().default(DEFAULT_POLL_TIMING.baseMs),
  UNIGATE_VIDEO_POLL_MAX_MS: z.coerce.number().int().positive().default(DEFAULT_POLL_TIMING.maxMs),
  UNIGATE_VIDEO_SWEEP_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 60_000),
  UNIGATE_WEBHOOK_ALLOW_PRIVATE: z.enum(['0', '1']).default('0'),
  UNIGATE_WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().positive().default(DEFAULT_WEBHOOK_RETRY.baseMs),
  /** The gateway's public origin, so webhook payloads carry absolute result links. */
  UNIGATE_PUBLIC_URL: z.string().url().optional(),
});
type VideoEnv = z.infer<typeof env>;

const ENV = Symbol('ENV');
const BUS = Symbol('BUS');
const POLLS = Symbol('POLLS');
const VIDEO = Symbol('VIDEO');
const WEBHOOKS = Symbol('WEBHOOKS');

/**
 * The video service process: submissions behind EndpointService, lookups behind VideoService, tasks
 * in the video schema, polls as BullMQ jobs (every replica works the queue), usage and
 * video.task.updated to Kafka, finished MP4s in the bucket the edges serve links from.
 */
@Module({
  providers: [
    { provide: ENV, useFactory: () => readEnv(env) },
    {
      provide: BUS,
      inject: [ENV, Readiness],
      useFactory: (e: VideoEnv, readiness: Readiness) => serviceEventBus('video', e, readiness),
    },
    {
      provide: POLLS,
      inject: [ENV],
      useFactory: (e: VideoEnv) =>
        new BullPolls(
          { connection: bullConnection(e.REDIS_URL), prefix: e.UNIGATE_VIDEO_QUEUE_PREFIX, sweepEveryMs: e.UNIGATE_VIDEO_SWEEP_MS },
          createLogger('video'),
        ),
    },
    {
      provide: WEBHOOKS,
      inject: [ENV],
      useFactory: (e: VideoEnv) =>
        new BullWebhooks(
          {
            connection: bullConnection(e.REDIS_URL),
            prefix: e.UNIGATE_VIDEO_QUEUE_PREFIX,
            retry: { ...DEFAULT_WEBHOOK_RETRY, baseMs: e.UNIGATE_WEBHOOK_RETRY_BASE_MS },
          },
          createLogger('video'),
        ),
    },
    {
      provide: VIDEO,
      inject: [ENV, BUS, POLLS, WEBHOOKS, Readiness],
      useFactory: async (e: VideoEnv, bus: EventBus, polls: BullPolls, webhooks: BullWebhooks, readiness: Readiness) => {
        const logger = createLogger('video');
        const storage = resultStorageFromEnv();
        if (storage) await storage.store.ensureBucket();
        const video = createVideoService({
          dataSource: await openVideoDataSource({ url: e.DATABASE_URL, logger }),
          usage: new UsageRecorder(publishUsage(bus), logger),
          billing: grpcHoldReleaser(e.BILLING_GRPC_URL),
          catalog: new GrpcCatalogClient(e.CATALOG_GRPC_URL),
          bus,
          results: storage && resultStore(storage.store, storage.signer),
          polls,
          webhooks,
          webhookOptions: {
            allowPrivate: e.UNIGATE_WEBHOOK_ALLOW_PRIVATE === '1',
            publicOrigin: e.UNIGATE_PUBLIC_URL?.replace(/\/+$/, ''),
          },
          timing: { baseMs: e.UNIGATE_VIDEO_POLL_BASE_MS, maxMs: e.UNIGATE_VIDEO_POLL_MAX_MS },
          logger,
        });
        webhooks.start(video.delivery);
        await polls.start({ poll: (id) => video.tasks.poll(id), stuck: (idleMs) => video.store.stuck(idleMs) });
        readiness.add('database', () => video.store.checkReady());
        return video;
      },
    },
    {
      provide: GRPC_HANDLERS,
      inject: [VIDEO],
      useFactory: (video: VideoService) => ({
        endpoint: endpointServiceHandlers(video, { logger: createLogger('video') }),
        video: videoTaskHandlers(video),
      }),
    },
  ],
})
export class VideoAppModule implements OnApplicationShutdown {
  constructor(
    @Inject(BUS) private readonly bus: EventBus,
    @Inject(POLLS) private readonly polls: BullPolls,
    @Inject(WEBHOOKS) private readonly webhooks: BullWebhooks,
  ) {}

  async onApplicationShutdown() {
    await this.polls.close();
    await this.webhooks.close();
    await this.bus.close();
  }
}
