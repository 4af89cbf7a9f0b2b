/**
 * Reservations on Redis, shared by every edge replica and by billing: exact across replicas because
 * each admission is one Lua script (redis-reservation-scripts.ts). The ledger in Postgres stays the
 * truth: an account's balance is loaded into Redis from it when missing, every settlement and credit
 * pushes the new balance with its version (a newer version always wins, so replays and reordering
 * are harmless), and the reconciliation job (reconciler.ts) checks the two agree.
 *
 * Keys (docs/billing.md): `<prefix>{a:<account>}:money|holds|amounts` and
 * `<prefix>{a:<account>}:k:<key>:rate|slots`.
 */
import { errors, type KeyPrincipal } from '@unigate/contracts';
import { wholeNumber, type Logger } from '@unigate/platform';
import type Redis from 'ioredis';
import { z } from 'zod';
import { HeartbeatLease } from './heartbeat-lease';
import { ADMIT_LUA, APPLY_LUA, EXTEND_HOLDS_LUA, READ_LUA, REFRESH_LUA, SHRINK_LUA } from './redis-reservation-scripts';
import { RunningHolds, type HoldExtension } from './running-holds';
import {
  concurrencyExceeded,
  DEFAULT_HOLD_TTL_MS,
  DEFAULT_LEASE_TTL_MS,
  DEFAULT_WINDOW_MS,
  holdIdOf,
  holdLife,
  keepAliveEvery,
  leaseIdFor,
  limitOf,
  NOTHING_ADMITTED,
  NOTHING_TO_GIVE_BACK,
  once,
  rateExceeded,
  reservationsUnavailable,
  shrinkPaysOff,
  unknownAccount,
  type AccountMoney,
  type AccountMoneyLoader,
  type AdmitRequest,
  type Admitted,
  type ReservationOptions,
  type Reservations,
} from './reservations';

type Keys5 = [string, string, string, string, string];

interface Commands {
  unigateAdmit(...args: [...Keys5, number, number, string, number, number, number, string, number]): Promise<[number, number]>;
  unigateApply(...args: [...Keys5, string, string, string, 'create' | 'update', ...string[]]): Promise<number>;
  unigateRelease(...args: [...Keys5, string, string, string, 'update']): Promise<number>;
  unigateRead(...args: Keys5): Promise<string[]>;
  unigateShrink(...args: [...Keys5, string, number]): Promise<number>;
  unigateRefresh(slots: string, id: string, ttlMs: number): Promise<number>;
  unigateExtendHolds(holds: string, ...idsAndTtls: Array<string | number>): Promise<number>;
}

/** The admission script's command: sent at once, never deferred into a pipeline (see connectRedisForReservations). */
const ADMIT_COMMAND = 'unigateAdmit';
/** APPLY_LUA under its own name for a hold given back, sent at once (billing's ledger pushes stay batched). */
const RELEASE_COMMAND = 'unigateRelease';
const SHRINK_COMMAND = 'unigateShrink';
/**
 * What an admission gives back goes out the moment it is called, never deferred to the end of the
 * turn: the edge gives back just before it writes the answer, and a client that sends its next request
 * the moment it has the answer must find its slot free and its hold shrunk. Deferred, the release left
 * after the answer (or a whole Redis round trip later, behind a pipeline still waiting on its reply),
 * and another replica could admit that next request first and refuse it a slot (a flaky
 * limits.distributed run, 2026-11-29).
 */
const SENT_AT_ONCE = [ADMIT_COMMAND, RELEASE_COMMAND, SHRINK_COMMAND, 'zrem'];

/** Holds pushed out by one script at most (a few hundred µs of Redis). */
const EXTEND_BATCH = 500;

/** What Redis holds for an account right now. */
export interface RedisAccountMoney extends AccountMoney {
  reserved_micros: number;
  /** The sum of the amounts of the live holds: equals reserved when nothing is broken. */
  held_micros: number;
}

/** Every key's prefix unless UNIGATE_REDIS_KEY_PREFIX says another. */
export const DEFAULT_KEY_PREFIX = 'unigate:';

/**
 * UNIGATE_REDIS_KEY_PREFIX, in the environment of the edge and of billing: the same on every one of a
 * deployment. Deployments sharing one Redis keep apart by it: their limits, holds and money copies,
 * and the dashboard's sessions (billing's reconciliation job then reads only its own copies).
 */
export const redisKeyPrefixEnv = z.string().min(1).optional();

/**
 * UNIGATE_LEASE_TTL_MS, on the edge: how long a running request's concurrency slot and hold outlive
 * the last keep-alive of the edge serving it (default DEFAULT_LEASE_TTL_MS, a minute). An edge that
 * dies gives them back this long after, at most; a shorter one costs more keep-alives (every third of
 * it), and a Redis unreachable for two of them lets a long call's slot and hold expire under it.
 */
export const leaseTtlEnv = wholeNumber(
  1_000,
  DEFAULT_HOLD_TTL_MS,
  `UNIGATE_LEASE_TTL_MS must be a whole number of milliseconds from 1000 to ${DEFAULT_HOLD_TTL_MS}`,
);

export interface RedisReservationOptions extends ReservationOptions {
  logger?: Logger;
  /** Prepended to every key (default DEFAULT_KEY_PREFIX); tests use a unique one. */
  keyPrefix?: string;
  /** Where a missing balance is read from (billing's ledger); required to admit holds. */
  load?: AccountMoneyLoader;
}

export class RedisReservations implements Reservations {
  private readonly redis: Redis & Commands;
  private readonly leases = new Set<HeartbeatLease>();
  private readonly running: RunningHolds;
  private readonly windowMs: number;
  private readonly ttlMs: number;
  private readonly prefix: string;

  /** Takes ownership of `redis` (close() disconnects it); see connectRedisForReservations for its options. */
  constructor(
    redis: Redis,
    private readonly opts: RedisReservationOptions = {},
  ) {
    this.windowMs = opts.windowMs ?? DEFAULT_WINDOW_MS;
    this.ttlMs = opts.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
    this.prefix = opts.keyPrefix ?? DEFAULT_KEY_PREFIX;
    redis.defineCommand(ADMIT_COMMAND, { numberOfKeys: 5, lua: ADMIT_LUA });
    redis.defineCommand('unigateApply', { numberOfKeys: 5, lua: APPLY_LUA });
    redis.defineCommand(RELEASE_COMMAND, { numberOfKeys: 5, lua: APPLY_LUA });
    redis.defineCommand('unigateRead', { numberOfKeys: 5, lua: READ_LUA });
    redis.defineCommand(SHRINK_COMMAND, { numberOfKeys: 5, lua: SHRINK_LUA });
    redis.defineCommand('unigateRefresh', { numberOfKeys: 1, lua: REFRESH_LUA });
    redis.defineCommand('unigateExtendHolds', { numberOfKeys: 1, lua: EXTEND_HOLDS_LUA });
    this.redis = redis as Redis & Commands;
    this.running = new RunningHolds((holds) => this.extendHolds(holds), keepAliveEvery(this.ttlMs), opts.logger);
  }

  async admit(req: AdmitRequest): Promise<Admitted> {
    const { principal, request_id: requestId, amount_micros: amount } = req;
    const rpm = limitOf(principal.rate_limit_rpm);
    const max = limitOf(principal.max_concurrency);
    if (rpm === 0 && max === 0 && amount <= 0) return NOTHING_ADMITTED;
    const keys = this.keys(principal);
    const leaseId = leaseIdFor(requestId);
    const life = holdLife(req.ttl_seconds, this.ttlMs);
    const admit = () =>
      this.redis.unigateAdmit(...keys, rpm, max, leaseId, this.windowMs, this.ttlMs, Math.max(0, amount), requestId, life.runningMs);
    const run = () =>
      admit().catch((err: unknown) => {
        this.undoAdmission(keys, leaseId, holdIdOf(req), rpm, max);
        throw err;
      });
    let [verdict, detail] = await this.call(run, principal, requestId);
    if (verdict === 3) {
      // The account's money is not in Redis (first use, or Redis restarted): load it from the ledger.
      const money = await this.load(principal.account_id);
      await this.call(
        () => this.redis.unigateApply(...keys, '', String(money.balance_micros), String(money.version), 'create'),
        principal,
        requestId,
      );
      [verdict, detail] = await this.call(run, principal, requestId);
    }
    if (verdict === 1) throw rateExceeded(rpm, detail);
    if (verdict === 2) throw concurrencyExceeded(max);
    if (verdict === 3) throw reservationsUnavailable();
    if (verdict === 4) throw errors.insufficientBalance(amount, detail);

    const release = max > 0 ? this.lease(keys[1], leaseId, principal, requestId) : NOTHING_TO_GIVE_BACK;
    const holdId = holdIdOf(req);
    const shrinks = shrinkPaysOff(detail, amount);
    const ended = holdId
      ? this.running.add({ accountId: principal.account_id, holdId, ttlMs: life.runningMs, endedTtlMs: life.endedMs })
      : undefined;
    return {
      holdId,
      // Fire and forget: the answer does not wait for Redis, and a hold or slot that cannot be given
      // back expires by itself.
      refund: once(async () => {
        if (holdId)
          await this.release(principal.account_id, holdId).catch((err: unknown) =>
            this.warn('hold refund failed; it will expire', err, requestId),
          );
      }),
      shrinkTo: async (costMicros) => {
        if (holdId && shrinks && costMicros < amount)
          await this.redis
            .unigateShrink(...this.accountKeys(principal.account_id), holdId, Math.max(0, costMicros))
            .catch((err: unknown) => this.warn('hold shrink failed; it stays until billing settles it', err, requestId));
      },
      finish: once(ended ? () => (ended(), release()) : release),
    };
  }

  async release(accountId: string, holdId: string): Promise<void> {
    await this.redis.unigateRelease(...this.accountKeys(accountId), holdId, '', '', 'update');
  }

  /**
   * Billing's side: after the ledger changed an account's balance, push it (with its version) and
   * drop the settled holds, in one call. A balance Redis does not hold yet is left for the next
   * admission to load.
   */
  async applyLedger(accountId: string, money: AccountMoney, holdIds: readonly string[] = []): Promise<void> {
    const [first = '', ...more] = holdIds;
    await this.redis.unigateApply(
      ...this.accountKeys(accountId),
      first,
      String(money.balance_micros),
      String(money.version),
      'update',
      ...more,
    );
  }

  /** The account's money as Redis holds it (expired holds dropped first); null when absent. */
  async read(accountId: string): Promise<RedisAccountMoney | null> {
    const r = await this.redis.unigateRead(...this.accountKeys(accountId));
    if (r.length === 0) return null;
    return { balance_micros: Number(r[0]), version: Number(r[1]), reserved_micros: Number(r[2]), held_micros: Number(r[3]) };
  }

  /** Forgets an account's money in Redis; the next admission reloads it from the ledger. */
  async forget(accountId: string): Promise<void> {
    const [money, holds, amounts] = this.accountKeys(accountId).slice(2);
    await this.redis.del(money, holds, amounts);
  }

  /** Every account whose money Redis holds (SCAN: bounded work per call, safe on a busy Redis). */
  async *accounts(): AsyncGenerator<string> {
    const pattern = `${this.prefix}{a:*}:money`;
    const re = new RegExp(`^${escape(this.prefix)}\\{a:(.+)\\}:money$`);
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      for (const key of keys) {
        const m = re.exec(key);
        if (m) yield m[1];
      }
    } while (cursor !== '0');
  }

  async checkReady(): Promise<void> {
    try {
      await this.redis.ping();
    } catch (err) {
      throw new Error(`redis: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  async close(): Promise<void> {
    await this.running.close();
    for (const lease of [...this.leases]) lease.stop();
    this.redis.disconnect();
  }

  /**
   * One script per account (its holds carry its hash tag) and per EXTEND_BATCH of its holds, all sent
   * at once: a sweep carries every call that ended since the last one, mostly settled already, and
   * one script must not hold Redis up for long.
   */
  private async extendHolds(holds: HoldExtension[]): Promise<void> {
    const byAccount = new Map<string, Array<string | number>>();
    for (const h of holds) {
      let args = byAccount.get(h.accountId);
      if (!args) byAccount.set(h.accountId, (args = []));
      args.push(h.holdId, h.ttlMs);
    }
    const calls: Array<Promise<number>> = [];
    for (const [accountId, args] of byAccount) {
      const key = this.accountKeys(accountId)[3];
      for (let i = 0; i < args.length; i += 2 * EXTEND_BATCH)
        calls.push(this.redis.unigateExtendHolds(key, ...args.slice(i, i + 2 * EXTEND_BATCH)));
    }
    await Promise.all(calls);
  }

  private async load(accountId: string): Promise<AccountMoney> {
    if (!this.opts.load) throw reservationsUnavailable();
    const money = await this.opts.load(accountId);
    if (!money) throw unknownAccount(accountId);
    return money;
  }

  private async call<T>(run: () => Promise<T>, principal: KeyPrincipal, requestId: string): Promise<T> {
    try {
      return await run();
    } catch (err) {
      this.opts.logger?.error({ key_id: principal.key_id, request_id: requestId, err: String(err) }, 'reservation store unavailable');
      throw reservationsUnavailable();
    }
  }

  private lease(slots: string, leaseId: string, principal: KeyPrincipal, requestId: string): () => Promise<void> {
    const lease = new HeartbeatLease(
      {
        refresh: async () => (await this.redis.unigateRefresh(slots, leaseId, this.ttlMs)) === 1,
        remove: async () => void (await this.redis.zrem(slots, leaseId)),
      },
      this.ttlMs,
      (l) => this.leases.delete(l),
      this.opts.logger,
      { key_id: principal.key_id, request_id: requestId },
    );
    this.leases.add(lease);
    return () => lease.release();
  }

  private accountKeys(accountId: string): Keys5 {
    const tag = `${this.prefix}{a:${accountId}}`;
    return [`${tag}:-`, `${tag}:-`, `${tag}:money`, `${tag}:holds`, `${tag}:amounts`];
  }

  private keys(p: KeyPrincipal): Keys5 {
    const keys = this.accountKeys(p.account_id);
    const tag = `${this.prefix}{a:${p.account_id}}:k:${p.key_id}`;
    keys[0] = `${tag}:rate`;
    keys[1] = `${tag}:slots`;
    return keys;
  }

  /**
   * An admission that timed out here (Redis hung, its connection still open) still runs once Redis
   * catches up, and its hold, slot and rate entry would outlive the 503 its caller got until their TTLs
   * (a lease TTL, a minute: a key with max_concurrency locked out, money reserved for nothing; QA probe,
   * 2026-12-01). Dropping them is sent after it on the same connection, so Redis runs it after the
   * admission; where nothing was recorded it changes nothing. The edge admits a request id once, so
   * no other admission is undone.
   */
  private undoAdmission(keys: Keys5, leaseId: string, holdId: string | null, rpm: number, max: number): void {
    void Promise.all([
      holdId ? this.redis.unigateRelease(...keys, holdId, '', '', 'update') : undefined,
      rpm > 0 ? this.redis.zrem(keys[0], leaseId) : undefined,
      max > 0 ? this.redis.zrem(keys[1], leaseId) : undefined,
      // Redis unreachable: the admission's failure is logged already, and whatever it recorded expires.
    ]).catch(() => undefined);
  }

  private warn(msg: string, err: unknown, requestId: string): void {
    this.opts.logger?.warn({ request_id: requestId, err: String(err) }, msg);
  }
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A Redis connection for reservations. Commands never wait in an offline queue and time out after a
 * second, so an unreachable Redis turns into a prompt 503 (fail closed) instead of requests that
 * hang; a command cut off by a disconnect is not re-sent, so an admission is never recorded twice.
 * The client keeps reconnecting in the background; readiness reports whether it is connected.
 * Commands issued in one turn of the event loop (heartbeats, a settled batch's balance pushes) go out
 * as one pipeline at the end of the turn: one write and one read for all of them. An admission is not
 * deferred: the request waits on it, and it is sent at once, ahead of the rest of the request's work
 * (the held call the edge encodes while Redis answers). Nor is what a call gives back (SENT_AT_ONCE).
 */
export function connectRedisForReservations(url: string, logger?: Logger, name = 'unigate-reservations'): Redis {
  // Loaded with the first connection, not with this library, whose index standalone loads for its
  // memory reservations without ever connecting (ioredis is 45 modules).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { default: RedisClient } = require('ioredis') as typeof import('ioredis');
  const redis = new RedisClient(url, {
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    autoPipeliningIgnoredCommands: SENT_AT_ONCE,
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 1000,
    connectTimeout: 2000,
    connectionName: name,
  });
  let down = false;
  redis.on('error', (err: Error) => {
    if (!down) logger?.warn({ err: err.message }, 'redis (reservations) connection error');
    down = true;
  });
  redis.on('ready', () => {
    if (down) logger?.info('redis (reservations) reconnected');
    down = false;
  });
  return redis;
}
