/**
 * Shared setup for billing's integration tests: a fresh database per file and billing composed in
 * one of its two modes — `redis` (the distributed deployment: ledger in Postgres, holds and the
 * balance copy in the local Redis under a unique key prefix) or `embedded` (standalone's memory-fronted
 * ledger, here on the Postgres server).
 */
import { randomUUID } from 'node:crypto';
import type { KeyPrincipal, UsageRecorded } from '@unigate/contracts';
import { createLogger, InMemoryEventBus, type EventBus } from '@unigate/platform';
import { createTestDatabase, redisUrl, uniqueName, type TestDatabase } from '@unigate/testing';
import type { DataSource } from 'typeorm';
import { createBillingDomain, openBillingDataSource, type BillingDomain } from '../src';
import { connectRedisForReservations, RedisReservations, type Reservations } from '../src/reservations';

// The billing tests import it from here with the rest of their harness.
export { waitFor } from '@unigate/testing';

export const logger = createLogger('billing-test', 'silent');

export type Mode = 'redis' | 'embedded';

export interface Harness {
  mode: Mode;
  db: TestDatabase;
  ds: DataSource;
  bus: InMemoryEventBus;
  domain: BillingDomain;
  /** What the edge admits with: the Redis store (another replica's connection) or the embedded memory. */
  reservations: Reservations;
  /** Redis mode: billing's own connection to the store. */
  redis?: RedisReservations;
  close(): Promise<void>;
}

/**
 * Resolves once `store` answers. A reservations connection refuses commands until it is up (no offline
 * queue, as in production: a request is refused rather than left waiting), so a test that admits the
 * moment the connection was made can meet a 503 on a busy machine.
 */
export async function untilReady(store: Reservations, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await store.checkReady();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

export async function startHarness(opts: { mode?: Mode; bus?: EventBus; commitWindowMs?: number } = {}): Promise<Harness> {
  const mode = opts.mode ?? 'redis';
  const db = await createTestDatabase('billing');
  const ds = await openBillingDataSource({ url: db.url, logger });
  const bus = new InMemoryEventBus({ logger, retryBackoff: { initialMs: 10, maxMs: 50 } });
  const keyPrefix = `${uniqueName('billing')}:`;
  const redis = mode === 'redis' ? new RedisReservations(connectRedisForReservations(redisUrl()), { keyPrefix }) : undefined;
  const domain = createBillingDomain({
    dataSource: ds,
    bus: opts.bus ?? bus,
    logger,
    mode: redis ? { kind: 'redis', redis, reconcileIntervalMs: 3_600_000 } : { kind: 'embedded', commitWindowMs: opts.commitWindowMs },
  });
  // An edge replica: its own Redis connection, loading missing balances through billing.
  const edge = redis
    ? new RedisReservations(connectRedisForReservations(redisUrl()), { keyPrefix, load: (id) => domain.billing.accountMoney(id) })
    : domain.reservations!;
  if (redis) await Promise.all([untilReady(redis), untilReady(edge)]);
  return {
    mode,
    db,
    ds,
    bus,
    domain,
    reservations: edge,
    redis,
    close: async () => {
      await domain.stop();
      await edge.close();
      await redis?.close();
      await bus.close();
      await ds.destroy();
      await db.drop();
    },
  };
}

export function principal(accountId: string, limits: Partial<Pick<KeyPrincipal, 'rate_limit_rpm' | 'max_concurrency'>> = {}): KeyPrincipal {
  return {
    key_id: `key_${randomUUID()}`,
    account_id: accountId,
    models: [],
    rate_limit_rpm: null,
    max_concurrency: null,
    tier: 'paid',
    ...limits,
  };
}

/** Holds `amount` for a new request of the account; the admission it got. */
export function hold(h: Harness, accountId: string, amount: number, requestId = `req_${randomUUID()}`) {
  return h.reservations.admit({ principal: principal(accountId), request_id: requestId, amount_micros: amount });
}

export function usageEvent(accountId: string, fields: Partial<UsageRecorded> = {}): UsageRecorded {
  return {
    event_id: randomUUID(),
    request_id: `req_${randomUUID()}`,
    account_id: accountId,
    key_id: 'key_test',
    hold_id: null,
    model: 'gpt-test',
    kind: 'chat',
    units: { input_tokens: 10, cached_input_tokens: 0, output_tokens: 20 },
    cost_micros: 1_000,
    occurred_at: new Date().toISOString(),
    ...fields,
  };
}

export async function ledgerCount(ds: DataSource, accountId: string): Promise<number> {
  const [row] = await ds.query(`SELECT count(*)::int AS n FROM billing.ledger_entries WHERE account_id = $1`, [accountId]);
  return row.n as number;
}

export async function balanceMicros(ds: DataSource, accountId: string): Promise<number> {
  const [row] = await ds.query(`SELECT balance_micros FROM billing.accounts WHERE id = $1`, [accountId]);
  return Number(row.balance_micros);
}

/** Redis mode: the ledger's balance, and the copy in Redis with its reservations. */
export async function readMoney(h: Harness, accountId: string) {
  const copy = await h.redis!.read(accountId);
  return { balance: await balanceMicros(h.ds, accountId), copy: copy?.balance_micros, reserved: copy?.reserved_micros };
}

/** Redis mode: billing composed again on the harness's database and store, with another bus. */
export function redisDomain(h: Harness, bus: EventBus) {
  return createBillingDomain({ dataSource: h.ds, bus, logger, mode: { kind: 'redis', redis: h.redis!, reconcileIntervalMs: 3_600_000 } });
}

/** The UTC date (YYYY-MM-DD) `offsetDays` from today. */
export const utcDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/**
 * `count` ledger entries of the account written straight to the table (no balance change), for reads
 * over more entries than a test could settle: request ids `${prefix}-${i}` (i from 1; unique across accounts), input 10 and
 * output 4 tokens, `cost` micro-dollars each, charged whole. `occurredAt` and `createdAt` are SQL
 * expressions, which may use `i`.
 */
export function insertLedgerEntries(
  ds: DataSource,
  accountId: string,
  count: number,
  opts: { prefix: string; occurredAt: string; createdAt?: string; model?: string; cost?: number },
): Promise<unknown> {
  return ds.query(
    `INSERT INTO billing.ledger_entries (id, account_id, request_id, event_id, key_id, model, kind, input_tokens,
       cached_input_tokens, output_tokens, units, cost_micros, charged_micros, balance_after_micros, occurred_at, created_at)
     SELECT gen_random_uuid(), $1::uuid, $2::text || '-' || i, 'ev-' || i, 'key_1', $4::text, 'chat', 10, 0, 4, '{}', $5::bigint, $5::bigint, 0,
       ${opts.occurredAt}, ${opts.createdAt ?? opts.occurredAt}
     FROM generate_series(1, $3::int) AS i`,
    [accountId, opts.prefix, count, opts.model ?? 'm', opts.cost ?? 3],
  );
}
