/**
 * `@unigate/billing/reservations`: the reservation client library billing owns — what the edge runs
 * to admit a request (limits and hold in one step) and billing runs to settle — without the rest of
 * billing (no database code is loaded).
 */
export * from './reservations';
export { HeartbeatLease, type Lease, type LeaseStore } from './heartbeat-lease';
export { MemoryMoney, MemoryAccount } from './memory-money';
export { MemoryReservations, type MemoryReservationOptions } from './memory-reservations';
export {
  RedisReservations,
  connectRedisForReservations,
  DEFAULT_KEY_PREFIX,
  redisKeyPrefixEnv,
  leaseTtlEnv,
  type RedisReservationOptions,
  type RedisAccountMoney,
} from './redis-reservations';
