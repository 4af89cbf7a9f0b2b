import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import {
  brokersList,
  createLogger,
  serviceEventBus,
  publishUsage,
  Readiness,
  readEnv,
  shutdownTimeoutMs,
  UsageRecorder,
  type EventBus,
} from '@unigate/platform';
import { endpointServiceHandlers, GRPC_HANDLERS, storedResponseHandlers } from '@unigate/platform/distributed';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import { createChatService } from './create-chat';
import { StoredResponseReads } from './domain/stored-response-reads';
import { responsesRetentionDays, startResponsesExpiry } from './responses-expiry';
import { openChatDataSource } from './store/chat-data-source';
import { TypeOrmResponsesStore } from './store/typeorm-responses-store';

const env = z.object({
  DATABASE_URL: z.string().min(1, 'DATABASE_URL is required (stored Responses live in the chat schema)'),
  KAFKA_BROKERS: brokersList,
  KAFKA_TOPIC_PREFIX: z.string().default(''),
});
type ChatEnv = z.infer<typeof env>;

const ENV = Symbol('ENV');
const BUS = Symbol('BUS');
const DATA_SOURCE = Symbol('DATA_SOURCE');
const RESPONSES = Symbol('RESPONSES');
const USAGE = Symbol('USAGE');
const EXPIRY = Symbol('EXPIRY');

/**
 * The chat service process: the chat endpoints' runner behind EndpointService, usage events to Kafka,
 * stored Responses in its own Postgres schema (`chat`), read back and deleted by id behind
 * ResponsesService, expired by their retention.
 */
@Module({
  providers: [
    { provide: ENV, useFactory: () => readEnv(env) },
    {
      provide: BUS,
      inject: [ENV, Readiness],
      useFactory: (e: ChatEnv, readiness: Readiness) => serviceEventBus('chat', e, readiness),
    },
    {
      provide: DATA_SOURCE,
      inject: [ENV],
      useFactory: (e: ChatEnv) => openChatDataSource({ url: e.DATABASE_URL, logger: createLogger('chat') }),
    },
    {
      provide: RESPONSES,
      inject: [DATA_SOURCE, Readiness],
      useFactory: (ds: DataSource, readiness: Readiness) => {
        const store = new TypeOrmResponsesStore(ds);
        readiness.add('database', () => store.checkReady());
        return store;
      },
    },
    // Read with the rest of the environment at start: a bad value stops the process before it serves.
    {
      provide: EXPIRY,
      inject: [RESPONSES],
      useFactory: (responses: TypeOrmResponsesStore) =>
        startResponsesExpiry(responses, { retentionDays: responsesRetentionDays(), logger: createLogger('chat') }),
    },
    { provide: USAGE, inject: [BUS], useFactory: (bus: EventBus) => new UsageRecorder(publishUsage(bus), createLogger('chat')) },
    {
      provide: GRPC_HANDLERS,
      inject: [USAGE, RESPONSES],
      useFactory: (usage: UsageRecorder, responses: TypeOrmResponsesStore) => ({
        endpoint: endpointServiceHandlers(
          createChatService({
            usage,
            logger: createLogger('chat'),
            responses,
          }),
          { logger: createLogger('chat') },
        ),
        responses: storedResponseHandlers(new StoredResponseReads(responses)),
      }),
    },
  ],
})
export class ChatAppModule implements OnApplicationShutdown {
  constructor(
    @Inject(BUS) private readonly bus: EventBus,
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    @Inject(USAGE) private readonly usage: UsageRecorder,
    @Inject(EXPIRY) private readonly stopExpiry: () => Promise<void>,
  ) {}

  async onApplicationShutdown() {
    // Calls have drained (gRPC closed first): their usage reaches the bus before it closes.
    await this.usage.flush(shutdownTimeoutMs());
    await this.bus.close();
    await this.stopExpiry();
    if (this.ds.isInitialized) await this.ds.destroy();
  }
}
