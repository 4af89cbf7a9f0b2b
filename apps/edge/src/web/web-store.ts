/**
 * Where the dashboard keeps short-lived state (sessions, failed-login counters): Redis in distributed
 * mode, so every edge replica sees the same sessions, and process memory in standalone — as the
 * edge's limits do (RedisReservations / MemoryReservations).
 */
import type Redis from 'ioredis';
import { DEFAULT_KEY_PREFIX } from '@unigate/billing/reservations';

export interface WebStore {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  del(key: string): Promise<void>;
  /** Adds one to a counter that expires `ttlMs` after its first hit; returns the new count. */
  hit(key: string, ttlMs: number): Promise<number>;
}

export class MemoryWebStore implements WebStore {
  private readonly entries = new Map<string, { value: string; expires: number }>();

  private live(key: string) {
    const e = this.entries.get(key);
    if (e && e.expires <= Date.now()) this.entries.delete(key);
    return e && e.expires > Date.now() ? e : undefined;
  }

  async get(key: string) {
    return this.live(key)?.value ?? null;
  }

  async set(key: string, value: string, ttlMs: number) {
    this.sweep();
    this.entries.set(key, { value, expires: Date.now() + ttlMs });
  }

  async del(key: string) {
    this.entries.delete(key);
  }

  async hit(key: string, ttlMs: number) {
    const e = this.live(key);
    const n = Number(e?.value ?? 0) + 1;
    if (e) e.value = String(n);
    else await this.set(key, '1', ttlMs);
    return n;
  }

  /** Expired entries go on writes, so an idle map never grows (at most one pass per minute). */
  private lastSweep = 0;
  private sweep() {
    const now = Date.now();
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [k, e] of this.entries) if (e.expires <= now) this.entries.delete(k);
  }
}

const HIT = `local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return n`;

export class RedisWebStore implements WebStore {
  /**
   * Takes ownership of `redis`: close() disconnects it. Keys go under the deployment's
   * UNIGATE_REDIS_KEY_PREFIX, as its limits and money do: deployments sharing a Redis keep apart
   * their sessions and their sign-up and log-in counters.
   */
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix = DEFAULT_KEY_PREFIX,
  ) {}

  get(key: string) {
    return this.redis.get(this.keyPrefix + key);
  }

  async set(key: string, value: string, ttlMs: number) {
    await this.redis.set(this.keyPrefix + key, value, 'PX', ttlMs);
  }

  async del(key: string) {
    await this.redis.del(this.keyPrefix + key);
  }

  async hit(key: string, ttlMs: number) {
    return Number(await this.redis.eval(HIT, 1, this.keyPrefix + key, ttlMs));
  }

  async close() {
    this.redis.disconnect();
  }
}
