import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import {
  brokersList,
  createLogger,
  type EventBus,
  publishUsage,
  readEnv,
  Readiness,
  type ResultStorage,
  resultStorageFromEnv,
  resultStore,
  serviceEventBus,
  startSweeper,
  UsageRecorder,
} from '@unigate/platform';
import { endpointServiceHandlers, GRPC_HANDLERS } from '@unigate/platform/distributed';
import { z } from 'zod';
import { createMediaService } from './create-media';
import { interactionRegistry } from './interaction-registry';

const env = z.object({
  KAFKA_BROKERS: brokersList,
  KAFKA_TOPIC_PREFIX: z.string().default(''),
});
type MediaEnv = z.infer<typeof env>;

const ENV = Symbol('ENV');
const BUS = Symbol('BUS');
const RESULTS = Symbol('RESULTS');
/** How often expired results are deleted from the bucket. */
const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/**
 * The media service process: the media endpoints' runner behind EndpointService, usage events to
 * Kafka, alpha image results in the S3 bucket every edge serves them from.
 */
@Module({
  providers: [
    { provide: ENV, useFactory: () => readEnv(env) },
    {
      provide: BUS,
      inject: [ENV, Readiness],
      useFactory: (e: MediaEnv, readiness: Readiness) => serviceEventBus('media', e, readiness),
    },
    {
      // The bucket alpha image results go to (UNIGATE_S3_*, UNIGATE_LINK_SECRET); absent: not served.
      provide: RESULTS,
      useFactory: async () => {
        const storage = resultStorageFromEnv();
        if (!storage) return undefined;
        await storage.store.ensureBucket();
        startSweeper(storage.store, SWEEP_INTERVAL_MS, (err) => createLogger('media').warn({ err }, 'sweeping expired results failed'));
        return storage;
      },
    },
    {
      provide: GRPC_HANDLERS,
      inject: [BUS, RESULTS],
      useFactory: (bus: EventBus, storage: ResultStorage | undefined) => ({
        endpoint: endpointServiceHandlers(
          createMediaService({
            usage: new UsageRecorder(publishUsage(bus), createLogger('media')),
            logger: createLogger('media'),
            results: storage && resultStore(storage.store, storage.signer),
            interactions: storage && interactionRegistry(storage.store),
          }),
          { logger: createLogger('media') },
        ),
      }),
    },
  ],
})
export class MediaAppModule implements OnApplicationShutdown {
  constructor(@Inject(BUS) private readonly bus: EventBus) {}

  async onApplicationShutdown() {
    await this.bus.close();
  }
}
