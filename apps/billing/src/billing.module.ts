/**
 * The billing service as a Nest module (distributed mode): Postgres from DATABASE_URL, Kafka from
 * KAFKA_BROKERS / KAFKA_TOPIC_PREFIX, the gRPC controller, the usage consumer and the bootstrap key.
 * Standalone does not use this module; it calls createBillingDomain with its own store and bus.
 */
import { Inject, Injectable, Module, Optional, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { usdToMicros } from '@unigate/contracts';
import { createLogger, KafkaEventBus, Readiness, type Logger } from '@unigate/platform';
import { GRPC_HANDLERS } from '@unigate/platform/distributed';
import type { DataSource } from 'typeorm';
import { readBillingEnv, type BillingEnv } from './billing.config';
import { createBillingDomain, openBillingDataSource, type BillingDomain } from './billing.domain';
import { connectRedisForReservations, RedisReservations } from './reservations';
import { billingGrpcHandlers } from './transport/billing.grpc.controller';

const ENV = Symbol('BillingEnv');
const LOGGER = Symbol('BillingLogger');
const DATA_SOURCE = Symbol('BillingDataSource');
const EVENT_BUS = Symbol('BillingEventBus');
const REDIS = Symbol('BillingRedis');
const DOMAIN = Symbol('BillingDomain');

@Injectable()
class BillingLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(ENV) private readonly env: BillingEnv,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    @Inject(EVENT_BUS) private readonly bus: KafkaEventBus,
    @Inject(REDIS) private readonly redis: RedisReservations,
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
    this.readiness?.add('redis', () => this.redis.checkReady());
    this.logger.info('billing ready');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.domain.stop();
    await this.bus.close();
    await this.redis.close();
    if (this.ds.isInitialized) await this.ds.destroy();
  }
}

@Module({
  providers: [
    { provide: ENV, useFactory: () => readBillingEnv() },
    { provide: LOGGER, useFactory: () => createLogger('billing') },
    {
      provide: DATA_SOURCE,
      inject: [ENV, LOGGER],
      useFactory: (env: BillingEnv, logger: Logger) => openBillingDataSource({ url: env.DATABASE_URL, logger }),
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
      // The copy of the money the edges admit against: billing keeps it in step with the ledger.
      provide: REDIS,
      inject: [ENV, LOGGER],
      useFactory: (env: BillingEnv, logger: Logger) =>
        new RedisReservations(connectRedisForReservations(env.REDIS_URL, logger, 'unigate-billing'), {
          logger,
          keyPrefix: env.UNIGATE_REDIS_KEY_PREFIX,
        }),
    },
    {
      provide: DOMAIN,
      inject: [DATA_SOURCE, EVENT_BUS, REDIS, LOGGER],
      useFactory: (dataSource: DataSource, bus: KafkaEventBus, redis: RedisReservations, logger: Logger) =>
        createBillingDomain({ dataSource, bus, logger, mode: { kind: 'redis', redis } }),
    },
    { provide: GRPC_HANDLERS, inject: [DOMAIN], useFactory: (domain: BillingDomain) => ({ billing: billingGrpcHandlers(domain.billing) }) },
    BillingLifecycle,
  ],
})
export class BillingAppModule {}
