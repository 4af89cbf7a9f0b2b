import '@unigate/platform/telemetry-register';
import { hostname } from 'node:os';
import {
  applyHeapGrowth,
  brokersList,
  createLogger,
  KafkaEventBus,
  onShutdownSignal,
  port,
  Readiness,
  readEnv,
  resultStorageFromEnv,
} from '@unigate/platform';
import { GrpcCatalogClient, GrpcEndpointClient, GrpcStoredResponseClient, GrpcVideoTaskClient } from '@unigate/platform/distributed';
import { listenHost, TOPICS } from '@unigate/contracts';
import { z } from 'zod';
import { GrpcBillingClient } from './clients/grpc-billing.client';
import { CatalogReplica } from './catalog/catalog-replica';
import { createEdgeApp, drainEdgeApp } from './create-edge-app';
import { connectRedisForReservations, leaseTtlEnv, RedisReservations, redisKeyPrefixEnv } from '@unigate/billing/reservations';
import { RedisWebStore } from './web/web-store';

const env = z.object({
  PORT: port(8080),
  HOST: listenHost(),
  CHAT_GRPC_URL: z.string().min(1),
  MEDIA_GRPC_URL: z.string().min(1),
  /** The video service; unset: video endpoints are not served by this edge. */
  VIDEO_GRPC_URL: z.string().min(1).optional(),
  BILLING_GRPC_URL: z.string().min(1),
  CATALOG_GRPC_URL: z.string().min(1),
  KAFKA_BROKERS: brokersList,
  KAFKA_TOPIC_PREFIX: z.string().default(''),
  // Per-key limits and holds are shared by every replica through this Redis.
  REDIS_URL: z
    .string({ error: 'REDIS_URL must be set on the edge (redis://host:port): rate and concurrency limits live there' })
    .regex(/^rediss?:\/\/\S+$/, 'REDIS_URL must be a redis:// or rediss:// URL'),
  UNIGATE_REDIS_KEY_PREFIX: redisKeyPrefixEnv,
  UNIGATE_LEASE_TTL_MS: leaseTtlEnv,
  UNIGATE_ADMIN_TOKEN: z.string().min(16, 'UNIGATE_ADMIN_TOKEN must be set (at least 16 characters) on the edge'),
});

async function main() {
  applyHeapGrowth();
  const e = readEnv(env);
  const logger = createLogger('edge');
  const instanceId = `${hostname()}-${process.pid}`;
  const bus = new KafkaEventBus({
    brokers: e.KAFKA_BROKERS,
    clientId: `unigate-edge-${instanceId}`,
    topicPrefix: e.KAFKA_TOPIC_PREFIX,
    logger,
  });
  const billing = new GrpcBillingClient(e.BILLING_GRPC_URL);
  // Limits and holds in one Lua call; an account's money is loaded from billing's ledger when Redis lacks it.
  const reservations = new RedisReservations(connectRedisForReservations(e.REDIS_URL, logger, 'unigate-edge'), {
    logger,
    keyPrefix: e.UNIGATE_REDIS_KEY_PREFIX,
    leaseTtlMs: e.UNIGATE_LEASE_TTL_MS,
    load: (accountId) => billing.accountMoney(accountId),
  });
  // Dashboard sessions and log-in throttles, seen by every replica (its own connection: the
  // reservations' one is theirs to close).
  const webStore = new RedisWebStore(connectRedisForReservations(e.REDIS_URL, logger, 'unigate-edge-web'), e.UNIGATE_REDIS_KEY_PREFIX);
  // The catalogue is held here and resolved locally: one synchronous hop per request (the capability service).
  const catalog = new CatalogReplica(new GrpcCatalogClient(e.CATALOG_GRPC_URL), logger);
  catalog.start();
  const app = await createEdgeApp({
    ports: {
      billing,
      catalog,
      services: {
        chat: new GrpcEndpointClient(e.CHAT_GRPC_URL),
        media: new GrpcEndpointClient(e.MEDIA_GRPC_URL),
        ...(e.VIDEO_GRPC_URL && { video: new GrpcEndpointClient(e.VIDEO_GRPC_URL) }),
      },
      ...(e.VIDEO_GRPC_URL && { videoTasks: new GrpcVideoTaskClient(e.VIDEO_GRPC_URL) }),
      storedResponses: new GrpcStoredResponseClient(e.CHAT_GRPC_URL),
    },
    adminToken: e.UNIGATE_ADMIN_TOKEN,
    logger,
    bus,
    // Beside the key-stale topic (key.revoked), in the same group member: a second consumer would double the connections and fetches.
    events: { [TOPICS.catalogUpdated]: () => catalog.refresh() },
    eventsMissed: () => void catalog.refresh(),
    instanceId,
    reservations,
    // Alpha image results, read from the bucket the media service writes (UNIGATE_S3_*, UNIGATE_LINK_SECRET).
    files: resultStorageFromEnv(),
    webStore,
  });
  // Not ready until the key-stale consumer is in its group: before that, a revocation would wait
  // for the group join (seconds) instead of reaching this replica within one second.
  app.get(Readiness).add('kafka', () => bus.checkReady());
  app.get(Readiness).add('catalog', () => catalog.checkReady());
  await app.listen(e.PORT, e.HOST);
  logger.info({ url: await app.getUrl() }, 'edge started');
  onShutdownSignal(logger, async (deadlineMs) => {
    await drainEdgeApp(app, deadlineMs);
    await app.close();
    catalog.close();
    await reservations.close();
    await webStore.close();
    await bus.close();
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
