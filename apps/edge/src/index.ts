export { createEdgeApp, type EdgeAppOptions } from './create-edge-app';
export type { EdgePorts } from './edge.module';
export { KEY_LIMITER, type KeyLimiter, type KeyLimiterOptions, type Lease } from './limits/key-limiter';
export { InMemoryKeyLimiter } from './limits/in-memory-key-limiter';
export { RedisKeyLimiter, connectRedisForLimits } from './limits/redis-key-limiter';
