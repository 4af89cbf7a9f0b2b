export { VideoAppModule } from './video.module';
export * from './embedded';
export { BullPolls } from './queues/bull-polls';
export { BullWebhooks } from './webhooks/bull-webhooks';
