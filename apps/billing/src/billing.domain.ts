/**
 * Billing composed from a DataSource and an EventBus — the same objects whether the Nest module
 * builds them from the environment (distributed) or standalone hands in the embedded store and the
 * in-process bus.
 */
import type { DataSource } from 'typeorm';
import { createDataSource, type EventBus, type Logger } from '@unigate/platform';
import { AccountService } from './domain/accounts';
import { BillingService } from './domain/billing.service';
import { ensureBootstrap, type BootstrapResult } from './domain/bootstrap';
import { BILLING_ENTITIES } from './domain/entities';
import { HoldSweeper } from './domain/hold-sweeper';
import { DEFAULT_HOLD_TTL_MS, HoldService } from './domain/holds';
import { KeyService } from './domain/keys';
import { LedgerService } from './domain/ledger';
import { UsageSettler } from './domain/usage-settler';
import { BILLING_MIGRATIONS } from './migrations';
import { subscribeUsageConsumer } from './transport/usage.consumer';

export const BILLING_SCHEMA = 'billing';

export interface BillingDomainDeps {
  dataSource: DataSource;
  bus: EventBus;
  logger: Logger;
  /** How long an unsettled hold keeps its money reserved (default 10 minutes). */
  holdTtlMs?: number;
  /** How often expired holds are swept back to available (default: 30 s, or the TTL if shorter). */
  sweepIntervalMs?: number;
  /**
   * A separate pool (same database) for settling usage. Holds and settlements of a busy account share
   * one FIFO connection queue otherwise, and the one settlement lane of an account (events are
   * handled in order per key) waits behind every queued hold: under load settlement falls further and
   * further behind, keeping money reserved. With its own connection it keeps pace. Default: the
   * main DataSource. On the embedded store: a second DataSource with EMBEDDED_POOL_SIZE.
   */
  settlementDataSource?: DataSource;
}

export interface BillingDomain {
  /** The BillingPort implementation. */
  billing: BillingService;
  settler: UsageSettler;
  /** Starts consuming usage.recorded (group `billing`) and the expired-hold sweeper. Resolves once subscribed. */
  start(): Promise<void>;
  /** Stops the sweeper (waiting for a running sweep). Call before destroying the DataSource. */
  stop(): Promise<void>;
  /** Deletes expired holds now, giving their money back (the sweeper does this periodically). */
  sweepExpiredHolds(): Promise<void>;
  /** UNIGATE_BOOTSTRAP_KEY handling; idempotent. */
  ensureBootstrap(apiKey: string, creditMicros: number): Promise<BootstrapResult>;
  /** Readiness: the database answers. */
  checkReady(): Promise<void>;
}

export function createBillingDomain(deps: BillingDomainDeps): BillingDomain {
  const { dataSource: ds, bus, logger } = deps;
  const settler = new UsageSettler(deps.settlementDataSource ?? ds, logger);
  const holdTtlMs = deps.holdTtlMs ?? DEFAULT_HOLD_TTL_MS;
  const billing = new BillingService(
    new AccountService(ds),
    new KeyService(ds, bus),
    new HoldService(ds, holdTtlMs),
    new LedgerService(ds),
  );
  const sweeper = new HoldSweeper(ds, {
    intervalMs: deps.sweepIntervalMs ?? Math.min(30_000, holdTtlMs),
    logger,
    isOpen: () => ds.isInitialized,
  });
  return {
    billing,
    settler,
    start: async () => {
      await subscribeUsageConsumer(bus, settler, logger);
      sweeper.start();
    },
    stop: () => sweeper.stop(),
    sweepExpiredHolds: () => sweeper.sweepNow(),
    ensureBootstrap: (apiKey, creditMicros) => ensureBootstrap(ds, logger, apiKey, creditMicros),
    checkReady: async () => {
      await ds.query('SELECT 1');
    },
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
