/**
 * KeyLimiter on Redis, shared by every edge replica: exact across replicas because each admission is
 * one Lua script (redis-limiter-scripts.ts), run atomically by Redis on Redis's clock. Scripts are
 * registered with defineCommand, so they travel as EVALSHA after the first call.
 *
 * Keys (docs/limits.md): `<prefix>{<key id>}:rate` and `<prefix>{<key id>}:slots`.
 */
import { randomBytes } from 'node:crypto';
import type { KeyPrincipal } from '@unigate/contracts';
import type { Logger } from '@unigate/platform';
import Redis from 'ioredis';
import { HeartbeatLease } from './heartbeat-lease';
import {
  concurrencyExceeded,
  DEFAULT_LEASE_TTL_MS,
  DEFAULT_WINDOW_MS,
  limitOf,
  limitsUnavailable,
  NO_LEASE,
  rateExceeded,
  type KeyLimiter,
  type KeyLimiterOptions,
  type Lease,
} from './key-limiter';
import { ACQUIRE_LUA, REFRESH_LUA, RELEASE_LUA } from './redis-limiter-scripts';

interface LimiterCommands {
  unigateLimitAcquire(
    rate: string,
    slots: string,
    rpm: number,
    max: number,
    id: string,
    windowMs: number,
    ttlMs: number,
  ): Promise<[number, number]>;
  unigateLimitRefresh(slots: string, id: string, ttlMs: number): Promise<number>;
  unigateLimitRelease(slots: string, id: string): Promise<number>;
}

export interface RedisKeyLimiterOptions extends KeyLimiterOptions {
  logger?: Logger;
  /** Prepended to every key (default `unigate:limits:`); tests use a unique one. */
  keyPrefix?: string;
}

export class RedisKeyLimiter implements KeyLimiter {
  private readonly redis: Redis & LimiterCommands;
  private readonly leases = new Set<HeartbeatLease>();
  private readonly windowMs: number;
  private readonly ttlMs: number;
  private readonly prefix: string;

  /** Takes ownership of `redis` (close() disconnects it); see connectRedisForLimits for its options. */
  constructor(
    redis: Redis,
    private readonly opts: RedisKeyLimiterOptions = {},
  ) {
    this.windowMs = opts.windowMs ?? DEFAULT_WINDOW_MS;
    this.ttlMs = opts.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
    this.prefix = opts.keyPrefix ?? 'unigate:limits:';
    redis.defineCommand('unigateLimitAcquire', { numberOfKeys: 2, lua: ACQUIRE_LUA });
    redis.defineCommand('unigateLimitRefresh', { numberOfKeys: 1, lua: REFRESH_LUA });
    redis.defineCommand('unigateLimitRelease', { numberOfKeys: 1, lua: RELEASE_LUA });
    this.redis = redis as Redis & LimiterCommands;
  }

  async acquire(principal: KeyPrincipal, requestId: string): Promise<Lease> {
    const rpm = limitOf(principal.rate_limit_rpm);
    const max = limitOf(principal.max_concurrency);
    if (rpm === 0 && max === 0) return NO_LEASE;

    const id = `${requestId}.${randomBytes(6).toString('hex')}`;
    const tag = `${this.prefix}{${principal.key_id}}`;
    const slots = `${tag}:slots`;
    let verdict: number;
    let detail: number;
    try {
      [verdict, detail] = await this.redis.unigateLimitAcquire(`${tag}:rate`, slots, rpm, max, id, this.windowMs, this.ttlMs);
    } catch (err) {
      this.opts.logger?.error({ key_id: principal.key_id, request_id: requestId, err: String(err) }, 'rate limiter store unavailable');
      throw limitsUnavailable();
    }
    if (verdict === 1) throw rateExceeded(rpm, detail);
    if (verdict === 2) throw concurrencyExceeded(max);
    if (max === 0) return NO_LEASE;

    const lease = new HeartbeatLease(
      {
        refresh: async () => (await this.redis.unigateLimitRefresh(slots, id, this.ttlMs)) === 1,
        remove: async () => void (await this.redis.unigateLimitRelease(slots, id)),
      },
      this.ttlMs,
      (l) => this.leases.delete(l),
      this.opts.logger,
      { key_id: principal.key_id, request_id: requestId },
    );
    this.leases.add(lease);
    return lease;
  }

  async checkReady(): Promise<void> {
    try {
      await this.redis.ping();
    } catch (err) {
      throw new Error(`redis: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  async close(): Promise<void> {
    for (const lease of [...this.leases]) lease.stop();
    this.redis.disconnect();
  }
}

/**
 * A Redis connection for the limiter. Commands never wait in an offline queue and time out after a
 * second, so an unreachable Redis turns into a prompt 503 (fail closed) instead of requests that
 * hang; a command cut off by a disconnect is not re-sent, so an admission is never recorded twice.
 * The client keeps reconnecting in the background; readiness reports whether it is connected.
 */
export function connectRedisForLimits(url: string, logger?: Logger): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 1000,
    connectTimeout: 2000,
    connectionName: 'unigate-edge-limits',
  });
  let down = false;
  redis.on('error', (err: Error) => {
    if (!down) logger?.warn({ err: err.message }, 'redis (limits) connection error');
    down = true;
  });
  redis.on('ready', () => {
    if (down) logger?.info('redis (limits) reconnected');
    down = false;
  });
  return redis;
}
