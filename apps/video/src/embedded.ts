/**
 * `@unigate/video/embedded`: what standalone runs video with — the service, its data source, and the
 * timer-driven polls and webhooks — without the distributed service's module, BullMQ queues, Kafka
 * or gRPC (the package index loads those; standalone never uses them).
 */
export { createVideoService, DEFAULT_POLL_TIMING, type VideoService, type VideoServiceDeps } from './create-video';
export { openVideoDataSource, VIDEO_SCHEMA } from './store/video-data-source';
export { TimerPolls } from './queues/timer-polls';
export { TimerWebhooks } from './webhooks/timer-webhooks';
export { DEFAULT_WEBHOOK_RETRY, type WebhookRetry } from './webhooks/webhook-retry';
