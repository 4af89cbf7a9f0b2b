/**
 * Billing composed for one of its two deployments (docs/billing.md):
 * - `redis` (distributed): the ledger in Postgres is the truth; holds and a copy of every balance
 *   live in Redis, where the edges' reservations admit requests in one Lua call; usage arrives over
 *   the bus and settles in Postgres, then in Redis; a reconciliation job checks the two agree.
 * - `embedded` (standalone): this process is the only writer; money lives in memory, where the
 *   edge's reservations admit requests and settlement charges at once; the ledger follows in group
 *   commits on PGlite.
 */
import type { UsageRecorded } from '@unigate/contracts';
import { type EventBus, type Logger } from '@unigate/platform';
import { createDataSource } from '@unigate/platform/database';
import type { DataSource } from 'typeorm';
import { RedisMirroredMoney } from './distributed/redis-mirrored-money';
import { Reconciler, type ReconcileReport } from './distributed/reconciler';
import { AccountService } from './domain/accounts';
import { BillingService } from './domain/billing.service';
import { ensureBootstrap, type BootstrapResult } from './domain/bootstrap';
import { BILLING_ENTITIES } from './domain/entities';
import { KeyService } from './domain/keys';
import { LedgerService } from './domain/ledger';
import type { SettleOutcome } from './domain/usage-event';
import { UsageSettler } from './domain/usage-settler';
import { UserService } from './domain/users';
import { EmbeddedLedger } from './embedded/embedded-ledger';
import { BILLING_MIGRATIONS } from './migrations';
import { MemoryReservations, type MemoryReservationOptions, type RedisReservations } from './reservations';
import { subscribeUsageConsumer } from './transport/usage.consumer';

export const BILLING_SCHEMA = 'billing';

export type BillingMode =
  | { kind: 'redis'; redis: RedisReservations; reconcileIntervalMs?: number }
  | { kind: 'embedded'; commitWindowMs?: number; journalDir?: string; reservations?: MemoryReservationOptions };

export interface BillingDomainDeps {
  dataSource: DataSource;
  bus: EventBus;
  logger: Logger;
  mode: BillingMode;
}

export interface BillingDomain {
  /** The BillingPort implementation. */
  billing: BillingService;
  /** Settles one usage.recorded event (the bus consumer's handler; standalone calls it directly). */
  settle(payload: unknown): Promise<SettleOutcome>;
  /**
   * Embedded mode: a usage event's first step, synchronous and before its answer is written (the
   * journal append that makes it crash-safe); settle() follows.
   */
  journalUsage?(event: UsageRecorded): void;
  /** Embedded mode: the reservations the edge admits with (limits and holds on the same memory). */
  reservations?: MemoryReservations;
  /** Starts what runs in the background: the usage consumer and reconciliation (distributed). */
  start(): Promise<void>;
  /** Stops it; embedded mode first writes every settled charge (SIGTERM loses nothing). */
  stop(): Promise<void>;
  /** Embedded mode: writes every charge settled so far now (tests; shutdown uses stop). */
  flush(): Promise<void>;
  /** Distributed mode: one reconciliation pass now. */
  reconcile(): Promise<ReconcileReport>;
  /** UNIGATE_BOOTSTRAP_KEY handling; idempotent. */
  ensureBootstrap(apiKey: string, creditMicros: number): Promise<BootstrapResult>;
  /** Readiness: the database answers. */
  checkReady(): Promise<void>;
}

export function createBillingDomain(deps: BillingDomainDeps): BillingDomain {
  const { dataSource: ds, bus, logger, mode } = deps;
  const accounts = new AccountService(ds);
  const keys = new KeyService(ds, bus);
  const ledger = new LedgerService(ds);
  const users = new UserService(ds);
  const common = {
    ensureBootstrap: (apiKey: string, creditMicros: number) => ensureBootstrap(ds, logger, apiKey, creditMicros),
    checkReady: async () => void (await ds.query('SELECT 1')),
  };

  if (mode.kind === 'embedded') {
    const embedded = new EmbeddedLedger(ds, logger, { windowMs: mode.commitWindowMs, journalDir: mode.journalDir });
    const reservations = new MemoryReservations(embedded.money, { logger, ...mode.reservations, refusal: () => embedded.refusal() });
    return {
      ...common,
      billing: new BillingService(accounts, keys, ledger, embedded, users),
      settle: (payload) => embedded.settle(payload),
      journalUsage: (event) => embedded.journalUsage(event),
      // The store answering is not enough: its ledger must be able to write (a full disk answers SELECT 1).
      checkReady: async () => {
        await common.checkReady();
        embedded.checkWritable();
      },
      reservations,
      // Before anything loads an account: charges a killed process journaled but never committed.
      start: async () => void (await embedded.recover()),
      stop: async () => {
        await reservations.close();
        await embedded.drain();
      },
      flush: () => embedded.flush(),
      reconcile: async () => ({ accounts: 0, refreshed: 0, mismatched: 0, unknown: 0 }),
    };
  }

  const mirror = new RedisMirroredMoney(accounts, mode.redis);
  const settler = new UsageSettler(ds, logger, mirror.afterSettle);
  const reconciler = new Reconciler(accounts, mode.redis, logger);
  return {
    ...common,
    billing: new BillingService(accounts, keys, ledger, mirror, users),
    settle: (payload) => settler.handle(payload),
    start: async () => {
      await subscribeUsageConsumer(bus, settler, logger);
      reconciler.start(mode.reconcileIntervalMs ?? 30_000);
    },
    stop: () => reconciler.stop(),
    flush: async () => undefined,
    reconcile: () => reconciler.run(),
  };
}

export interface OpenBillingDataSourceOptions {
  url: string;
  /** 1 on the embedded store (EMBEDDED_POOL_SIZE); default 10. */
  poolSize?: number;
  logger?: Logger;
}

/** The billing schema on `url`, migrated. */
export function openBillingDataSource(opts: OpenBillingDataSourceOptions): Promise<DataSource> {
  return createDataSource({
    url: opts.url,
    schema: BILLING_SCHEMA,
    entities: BILLING_ENTITIES,
    migrations: BILLING_MIGRATIONS,
    poolSize: opts.poolSize,
    logger: opts.logger,
  });
}
