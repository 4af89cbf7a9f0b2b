/**
 * Reservations in process memory, for the standalone gateway (one process, so memory is the whole
 * truth). Same semantics as RedisReservations: a sliding log of admission times per key for the rate,
 * a map of slot expiries per key for concurrency, and the account's holds (memory-money.ts) — all
 * checked, then all recorded, with no await in between: in one JavaScript thread that is atomic.
 */
import type { Logger } from '@unigate/platform';
import { HeartbeatLease } from './heartbeat-lease';
import type { MemoryMoney } from './memory-money';
import { RunningHolds } from './running-holds';
import {
  concurrencyExceeded,
  DEFAULT_LEASE_TTL_MS,
  DEFAULT_WINDOW_MS,
  holdIdOf,
  holdLife,
  keepAliveEvery,
  leaseIdFor,
  limitOf,
  NOTHING_TO_GIVE_BACK,
  once,
  rateExceeded,
  unknownAccount,
  type AdmitRequest,
  type Admitted,
  type ReservationOptions,
  type Reservations,
} from './reservations';
import { errors } from '@unigate/contracts';

interface KeyState {
  /** Admission times (ms), oldest first. */
  admitted: number[];
  /** Lease id → expiry (ms). */
  slots: Map<string, number>;
}

export interface MemoryReservationOptions extends ReservationOptions {
  logger?: Logger;
  /** Why a call that holds money must be refused now (the ledger cannot keep its charge), or undefined. */
  refusal?: () => Error | undefined;
  /** The clock; injectable so the window arithmetic can be tested without waiting. */
  now?: () => number;
}

export class MemoryReservations implements Reservations {
  private readonly keys = new Map<string, KeyState>();
  private readonly leases = new Set<HeartbeatLease>();
  private readonly windowMs: number;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly sweeper: NodeJS.Timeout;
  private readonly running: RunningHolds;

  constructor(
    private readonly money: MemoryMoney,
    private readonly opts: MemoryReservationOptions = {},
  ) {
    this.windowMs = opts.windowMs ?? DEFAULT_WINDOW_MS;
    this.ttlMs = opts.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
    this.now = opts.now ?? Date.now;
    // Keys that go quiet would otherwise keep their last window's log forever.
    this.sweeper = setInterval(() => this.sweep(), this.windowMs);
    this.sweeper.unref();
    this.running = new RunningHolds(
      async (holds) => {
        const now = this.now();
        for (const h of holds) this.money.peek(h.accountId)?.extend(h.holdId, now + h.ttlMs, now);
      },
      keepAliveEvery(this.ttlMs),
      opts.logger,
    );
  }

  async admit(req: AdmitRequest): Promise<Admitted> {
    const { principal, request_id: requestId, amount_micros: amount } = req;
    const refused = amount > 0 ? this.opts.refusal?.() : undefined;
    if (refused) throw refused;
    // The one await, before anything is checked or recorded: what follows runs in one go.
    const account = amount > 0 ? (this.money.peek(principal.account_id) ?? (await this.money.get(principal.account_id))) : undefined;
    if (amount > 0 && !account) throw unknownAccount(principal.account_id);

    const rpm = limitOf(principal.rate_limit_rpm);
    const max = limitOf(principal.max_concurrency);
    const now = this.now();
    const state = rpm > 0 || max > 0 ? this.state(principal.key_id) : undefined;
    if (state) this.prune(state, now);
    if (state && rpm > 0 && state.admitted.length >= rpm) {
      // The slot frees when the entry that puts the log at the limit leaves the window.
      throw rateExceeded(rpm, state.admitted[state.admitted.length - rpm] + this.windowMs - now);
    }
    if (state && max > 0 && state.slots.size >= max) throw concurrencyExceeded(max);
    const life = holdLife(req.ttl_seconds, this.ttlMs);
    if (account && !account.hold(requestId, amount, now + life.runningMs, now)) {
      throw errors.insufficientBalance(amount, account.available(now));
    }

    if (state && rpm > 0) state.admitted.push(now);
    const release = state && max > 0 ? this.lease(state, principal.key_id, requestId, now) : NOTHING_TO_GIVE_BACK;
    const holdId = holdIdOf(req);
    // The call's end gives its hold the rest of its life at once: in memory that is a map lookup (a
    // settled hold is gone already), with nothing to batch.
    const kept = account && holdId ? this.running.add({ accountId: account.id, holdId, ttlMs: life.runningMs }) : undefined;
    const ended = kept
      ? () => {
          kept();
          const t = this.now();
          account?.extend(requestId, t + life.endedMs, t);
        }
      : undefined;
    return {
      holdId,
      refund: once(() => account?.drop(requestId)),
      shrinkTo: async (costMicros) => account?.shrink(requestId, costMicros),
      finish: once(ended ? () => (ended(), release()) : release),
    };
  }

  async release(accountId: string, holdId: string): Promise<void> {
    this.money.peek(accountId)?.drop(holdId);
  }

  async checkReady(): Promise<void> {}

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await this.running.close();
    for (const lease of [...this.leases]) lease.stop();
  }

  /** Takes a concurrency slot; the returned function gives it back. */
  private lease(state: KeyState, keyId: string, requestId: string, now: number): () => Promise<void> {
    const id = leaseIdFor(requestId);
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
      { key_id: keyId, request_id: requestId },
    );
    this.leases.add(lease);
    return () => lease.release();
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
