import '@unigate/platform/telemetry-register';
import { hostname } from 'node:os';
import { brokersList, createLogger, KafkaEventBus, port, Readiness, readEnv } from '@unigate/platform';
import { z } from 'zod';
import { GrpcBillingClient } from './clients/grpc-billing.client';
import { GrpcCatalogClient } from './clients/grpc-catalog.client';
import { GrpcChatClient, GrpcMessagesClient } from './clients/grpc-chat.client';
import { createEdgeApp } from './create-edge-app';
import { connectRedisForLimits, RedisKeyLimiter } from './limits/redis-key-limiter';

const env = z.object({
  PORT: port(8080),
  HOST: z.string().default('0.0.0.0'),
  CHAT_GRPC_URL: z.string().min(1),
  BILLING_GRPC_URL: z.string().min(1),
  CATALOG_GRPC_URL: z.string().min(1),
  KAFKA_BROKERS: brokersList,
  KAFKA_TOPIC_PREFIX: z.string().default(''),
  // Per-key rate and concurrency limits are shared by every replica through this Redis.
  REDIS_URL: z
    .string({ error: 'REDIS_URL must be set on the edge (redis://host:port): rate and concurrency limits live there' })
    .regex(/^rediss?:\/\/\S+$/, 'REDIS_URL must be a redis:// or rediss:// URL'),
  UNIGATE_ADMIN_TOKEN: z.string().min(16, 'UNIGATE_ADMIN_TOKEN must be set (at least 16 characters) on the edge'),
});

async function main() {
  const e = readEnv(env);
  const logger = createLogger('edge');
  const instanceId = `${hostname()}-${process.pid}`;
  const bus = new KafkaEventBus({
    brokers: e.KAFKA_BROKERS,
    clientId: `unigate-edge-${instanceId}`,
    topicPrefix: e.KAFKA_TOPIC_PREFIX,
    logger,
  });
  const limiter = new RedisKeyLimiter(connectRedisForLimits(e.REDIS_URL, logger), { logger });
  const app = await createEdgeApp({
    ports: {
      chat: new GrpcChatClient(e.CHAT_GRPC_URL),
      messages: new GrpcMessagesClient(e.CHAT_GRPC_URL),
      billing: new GrpcBillingClient(e.BILLING_GRPC_URL),
      catalog: new GrpcCatalogClient(e.CATALOG_GRPC_URL),
    },
    adminToken: e.UNIGATE_ADMIN_TOKEN,
    logger,
    bus,
    instanceId,
    limiter,
  });
  // Not ready until the key.revoked consumer is in its group: before that, a revocation would wait
  // for the group join (seconds) instead of reaching this replica within one second.
  app.get(Readiness).add('kafka', () => bus.checkReady());
  await app.listen(e.PORT, e.HOST);
  logger.info({ url: await app.getUrl() }, 'edge started');
  const close = async () => {
    await app.close();
    await limiter.close();
    await bus.close();
    process.exit(0);
  };
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
