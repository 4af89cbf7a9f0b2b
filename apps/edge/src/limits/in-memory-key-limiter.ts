/**
 * KeyLimiter in process memory, for the standalone gateway (one process, so memory is the whole
 * truth). Same semantics as RedisKeyLimiter: a sliding log of admission times per key for the rate,
 * a map of slot expiries per key for concurrency, both checked and recorded with no await in between
 * — which, in one JavaScript thread, is what makes the step atomic.
 */
import { randomBytes } from 'node:crypto';
import type { KeyPrincipal } from '@unigate/contracts';
import type { Logger } from '@unigate/platform';
import { HeartbeatLease } from './heartbeat-lease';
import {
  concurrencyExceeded,
  DEFAULT_LEASE_TTL_MS,
  DEFAULT_WINDOW_MS,
  limitOf,
  NO_LEASE,
  rateExceeded,
  type KeyLimiter,
  type KeyLimiterOptions,
  type Lease,
} from './key-limiter';

interface KeyState {
  /** Admission times (ms), oldest first. */
  admitted: number[];
  /** Lease id → expiry (ms). */
  slots: Map<string, number>;
}

export interface InMemoryKeyLimiterOptions extends KeyLimiterOptions {
  logger?: Logger;
  /** The clock; injectable so the window arithmetic can be tested without waiting. */
  now?: () => number;
}

export class InMemoryKeyLimiter implements KeyLimiter {
  private readonly keys = new Map<string, KeyState>();
  private readonly leases = new Set<HeartbeatLease>();
  private readonly windowMs: number;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly opts: InMemoryKeyLimiterOptions = {}) {
    this.windowMs = opts.windowMs ?? DEFAULT_WINDOW_MS;
    this.ttlMs = opts.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
    this.now = opts.now ?? Date.now;
    // Keys that go quiet would otherwise keep their last window's log forever.
    this.sweeper = setInterval(() => this.sweep(), this.windowMs);
    this.sweeper.unref();
  }

  async acquire(principal: KeyPrincipal, requestId: string): Promise<Lease> {
    const rpm = limitOf(principal.rate_limit_rpm);
    const max = limitOf(principal.max_concurrency);
    if (rpm === 0 && max === 0) return NO_LEASE;

    const now = this.now();
    const state = this.state(principal.key_id);
    this.prune(state, now);
    if (rpm > 0 && state.admitted.length >= rpm) {
      // The slot frees when the entry that puts the log at the limit leaves the window.
      throw rateExceeded(rpm, state.admitted[state.admitted.length - rpm] + this.windowMs - now);
    }
    if (max > 0 && state.slots.size >= max) throw concurrencyExceeded(max);

    if (rpm > 0) state.admitted.push(now);
    if (max === 0) return NO_LEASE;
    const id = `${requestId}.${randomBytes(6).toString('hex')}`;
    state.slots.set(id, now + this.ttlMs);
    const lease = new HeartbeatLease(
      {
        refresh: async () => {
          const t = this.now();
          const expiry = state.slots.get(id);
          if (expiry === undefined || expiry <= t) return false;
          state.slots.set(id, t + this.ttlMs);
          return true;
        },
        remove: async () => {
          state.slots.delete(id);
        },
      },
      this.ttlMs,
      (l) => this.leases.delete(l),
      this.opts.logger,
      { key_id: principal.key_id, request_id: requestId },
    );
    this.leases.add(lease);
    return lease;
  }

  async checkReady(): Promise<void> {}

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    for (const lease of [...this.leases]) lease.stop();
  }

  private state(keyId: string): KeyState {
    let s = this.keys.get(keyId);
    if (!s) {
      s = { admitted: [], slots: new Map() };
      this.keys.set(keyId, s);
    }
    return s;
  }

  /** An admission at t counts for [t, t + window); a slot is gone once its expiry is reached. */
  private prune(state: KeyState, now: number): void {
    let drop = 0;
    while (drop < state.admitted.length && state.admitted[drop] <= now - this.windowMs) drop++;
    if (drop > 0) state.admitted.splice(0, drop);
    for (const [id, expiry] of state.slots) if (expiry <= now) state.slots.delete(id);
  }

  private sweep(): void {
    const now = this.now();
    for (const [keyId, state] of this.keys) {
      this.prune(state, now);
      if (state.admitted.length === 0 && state.slots.size === 0) this.keys.delete(keyId);
    }
  }
}
