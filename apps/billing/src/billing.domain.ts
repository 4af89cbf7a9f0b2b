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
import { HoldService } from './domain/holds';
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
}

export interface BillingDomain {
  /** The BillingPort implementation. */
  billing: BillingService;
  settler: UsageSettler;
  /** Starts consuming usage.recorded (group `billing`). Resolves once subscribed. */
  start(): Promise<void>;
  /** UNIGATE_BOOTSTRAP_KEY handling; idempotent. */
  ensureBootstrap(apiKey: string, creditMicros: number): Promise<BootstrapResult>;
  /** Readiness: the database answers. */
  checkReady(): Promise<void>;
}

export function createBillingDomain(deps: BillingDomainDeps): BillingDomain {
  const { dataSource: ds, bus, logger } = deps;
  const settler = new UsageSettler(ds, logger);
  const billing = new BillingService(new AccountService(ds), new KeyService(ds, bus), new HoldService(ds, deps.holdTtlMs), new LedgerService(ds));
  return {
    billing,
    settler,
    start: () => subscribeUsageConsumer(bus, settler, logger),
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
