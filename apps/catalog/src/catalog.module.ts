/**
 * The catalog service as a Nest module: builds the catalogue from process.env when the app starts (a bad
 * UNIGATE_CONFIG fails the start with a message naming the field), serves it over gRPC, and announces
 * it on `catalog.updated` so every edge replica fetches the new snapshot at once (without Kafka, edges
 * pick it up at their refresh interval).
 */
import { randomUUID } from 'node:crypto';
import { Inject, Module, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { TOPICS, type CatalogUpdated } from '@unigate/contracts';
import { createLogger, KafkaEventBus, type Logger } from '@unigate/platform';
import { GRPC_HANDLERS } from '@unigate/platform/distributed';
import { createCatalog } from './create-catalog';
import { CATALOG_PORT } from './catalog.tokens';
import { toSnapshot, type CatalogService } from './lookup';
import { catalogGrpcHandlers } from './transport/catalog.grpc.controller';

export { CATALOG_PORT } from './catalog.tokens';

const LOGGER = Symbol('CatalogLogger');

class CatalogAnnouncer implements OnApplicationBootstrap, OnApplicationShutdown {
  private bus?: KafkaEventBus;

  constructor(
    @Inject(CATALOG_PORT) private readonly catalog: CatalogService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const brokers = process.env.KAFKA_BROKERS?.split(',')
      .map((b) => b.trim())
      .filter(Boolean);
    if (!brokers?.length) return;
    this.bus = new KafkaEventBus({
      brokers,
      clientId: 'unigate-catalog',
      topicPrefix: process.env.KAFKA_TOPIC_PREFIX ?? '',
      logger: this.logger,
    });
    const event: CatalogUpdated = { event_id: randomUUID(), version: toSnapshot(this.catalog.snapshotData()).version };
    // Best effort: an edge that misses it refreshes on its interval anyway.
    await this.bus
      .publish(TOPICS.catalogUpdated, 'catalog', event)
      .catch((err: unknown) => this.logger.warn({ err: String(err) }, 'catalog.updated not published'));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.bus?.close();
  }
}

@Module({
  providers: [
    { provide: LOGGER, useFactory: () => createLogger('catalog') },
    {
      provide: CATALOG_PORT,
      inject: [LOGGER],
      useFactory: (logger: Logger) => {
        const catalog = createCatalog({ env: process.env });
        // Names and counts only: channels carry API keys.
        logger.info(
          { config: process.env.UNIGATE_CONFIG || null, models: catalog.listNow().length, aliases: Object.keys(catalog.aliases()) },
          'catalog loaded',
        );
        return catalog;
      },
    },
    {
      provide: GRPC_HANDLERS,
      inject: [CATALOG_PORT],
      useFactory: (catalog: CatalogService) => ({ catalog: catalogGrpcHandlers(catalog) }),
    },
    CatalogAnnouncer,
  ],
  exports: [CATALOG_PORT],
})
export class CatalogAppModule {}
