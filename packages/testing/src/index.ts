/**
 * Test helpers for every workspace: `import { createTestDatabase, uniqueName } from '@unigate/testing'`.
 * Jest maps @unigate/testing to this source folder, so no build is needed for tests.
 */
export { uniqueName } from './names';
export { kafkaBrokers, redisUrl, POSTGRES_ADMIN_URL } from './env';
export { createTestDatabase, type TestDatabase } from './database';
export { freePort, httpStatus, portSlice, waitForHttp } from './net';
export { waitFor } from './wait';
export { metricSeries, metricSum, scrapeMetrics } from './metrics';
export { startNodeProcess, stopAllNodeProcesses, type NodeProcess, type StartNodeProcessOptions } from './process';
export {
  ensurePostgres,
  ensureRedis,
  startKafkaTestBroker,
  parseMockBootstrap,
  tcpAccepts,
  SERVICE_NODE_OPTIONS,
  SERVICE_MALLOC_MMAP_THRESHOLD,
  type KafkaTestBroker,
} from './infra';
export {
  ROOT,
  appScript,
  FAST_VIDEO_ENV,
  newApiKey,
  startDistributed,
  startStandalone,
  startUpstreamSim,
  type DeploymentOptions,
  type DistributedOptions,
  type Edge,
  type Stack,
  type UpstreamSim,
} from './deployments';
export * from './s3';
