export { VideoAppModule } from './video.module';
export { createVideoService, DEFAULT_POLL_TIMING, type VideoService, type VideoServiceDeps } from './create-video';
export { openVideoDataSource, VIDEO_SCHEMA } from './store/video-data-source';
export { TimerPolls } from './queues/timer-polls';
export { BullPolls } from './queues/bull-polls';
export { TimerWebhooks } from './webhooks/timer-webhooks';
export { BullWebhooks } from './webhooks/bull-webhooks';
export { DEFAULT_WEBHOOK_RETRY, type WebhookRetry } from './webhooks/webhook-retry';
