/**
 * The billing service as a Nest module (distributed mode): Postgres from DATABASE_URL, Kafka from
 * KAFKA_BROKERS / KAFKA_TOPIC_PREFIX, the gRPC controller, the usage consumer and the bootstrap key.
 * Standalone does not use this module; it calls createBillingDomain with its own store and bus.
 */
import { Inject, Injectable, Module, Optional, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { usdToMicros } from '@unigate/contracts';
import { createLogger, KafkaEventBus, Readiness, type Logger } from '@unigate/platform';
import type { DataSource } from 'typeorm';
import { readBillingEnv, type BillingEnv } from './billing.config';
import { createBillingDomain, openBillingDataSource, type BillingDomain } from './billing.domain';
import { BILLING_PORT, BillingGrpcController } from './transport/billing.grpc.controller';

const ENV = Symbol('BillingEnv');
const LOGGER = Symbol('BillingLogger');
const DATA_SOURCE = Symbol('BillingDataSource');
const SETTLEMENT_DATA_SOURCE = Symbol('BillingSettlementDataSource');
const EVENT_BUS = Symbol('BillingEventBus');
const DOMAIN = Symbol('BillingDomain');

@Injectable()
class BillingLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(ENV) private readonly env: BillingEnv,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    @Inject(SETTLEMENT_DATA_SOURCE) private readonly settlementDs: DataSource,
    @Inject(EVENT_BUS) private readonly bus: KafkaEventBus,
    @Inject(DOMAIN) private readonly domain: BillingDomain,
    @Optional() private readonly readiness?: Readiness,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.env.UNIGATE_BOOTSTRAP_KEY) {
      await this.domain.ensureBootstrap(this.env.UNIGATE_BOOTSTRAP_KEY, usdToMicros(this.env.UNIGATE_BOOTSTRAP_CREDIT_USD));
    }
    await this.domain.start();
    this.readiness?.add('database', () => this.domain.checkReady());
    this.readiness?.add('kafka', () => this.bus.checkReady());
    this.logger.info('billing ready');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.domain.stop();
    await this.bus.close();
    if (this.settlementDs.isInitialized) await this.settlementDs.destroy();
    if (this.ds.isInitialized) await this.ds.destroy();
  }
}

@Module({
  controllers: [BillingGrpcController],
  providers: [
    { provide: ENV, useFactory: () => readBillingEnv() },
    { provide: LOGGER, useFactory: () => createLogger('billing') },
    {
      provide: DATA_SOURCE,
      inject: [ENV, LOGGER],
      useFactory: (env: BillingEnv, logger: Logger) => openBillingDataSource({ url: env.DATABASE_URL, logger }),
    },
    {
      // Settlement's own connections, so usage settles at the pace holds are placed (billing.domain.ts);
      // after DATA_SOURCE, which has run the migrations.
      provide: SETTLEMENT_DATA_SOURCE,
      inject: [ENV, LOGGER, DATA_SOURCE],
      useFactory: (env: BillingEnv, logger: Logger) => openBillingDataSource({ url: env.DATABASE_URL, poolSize: 2, logger }),
    },
    {
      provide: EVENT_BUS,
      inject: [ENV, LOGGER],
      useFactory: async (env: BillingEnv, logger: Logger) => {
        const bus = new KafkaEventBus({ brokers: env.KAFKA_BROKERS, clientId: 'billing', topicPrefix: env.KAFKA_TOPIC_PREFIX, logger });
        await bus.connect();
        return bus;
      },
    },
    {
      provide: DOMAIN,
      inject: [DATA_SOURCE, SETTLEMENT_DATA_SOURCE, EVENT_BUS, LOGGER],
      useFactory: (dataSource: DataSource, settlementDataSource: DataSource, bus: KafkaEventBus, logger: Logger) =>
        createBillingDomain({ dataSource, settlementDataSource, bus, logger }),
    },
    { provide: BILLING_PORT, inject: [DOMAIN], useFactory: (domain: BillingDomain) => domain.billing },
    BillingLifecycle,
  ],
})
export class BillingAppModule {}
