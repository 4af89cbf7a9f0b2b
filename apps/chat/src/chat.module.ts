import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { brokersList, createLogger, KafkaEventBus, Readiness, readEnv, type EventBus } from '@unigate/platform';
import { z } from 'zod';
import { createChatService, createMessagesService } from './create-chat';
import { CHAT_SERVICE, MESSAGES_SERVICE } from './tokens';
import { ChatGrpcController } from './transport/chat.grpc.controller';

const env = z.object({ KAFKA_BROKERS: brokersList, KAFKA_TOPIC_PREFIX: z.string().default('') });
const BUS = Symbol('BUS');

/** The chat service process: gRPC controller over the chat domain, usage events to Kafka. */
@Module({
  controllers: [ChatGrpcController],
  providers: [
    {
      provide: BUS,
      inject: [Readiness],
      useFactory: (readiness: Readiness) => {
        const e = readEnv(env);
        const bus = new KafkaEventBus({ brokers: e.KAFKA_BROKERS, clientId: 'unigate-chat', topicPrefix: e.KAFKA_TOPIC_PREFIX, logger: createLogger('chat') });
        readiness.add('kafka', () => bus.checkReady());
        return bus;
      },
    },
    { provide: CHAT_SERVICE, inject: [BUS], useFactory: (bus: EventBus) => createChatService({ bus, logger: createLogger('chat') }) },
    { provide: MESSAGES_SERVICE, inject: [BUS], useFactory: (bus: EventBus) => createMessagesService({ bus, logger: createLogger('chat') }) },
  ],
})
export class ChatAppModule implements OnApplicationShutdown {
  constructor(@Inject(BUS) private readonly bus: EventBus) {}

  async onApplicationShutdown() {
    await this.bus.close();
  }
}
