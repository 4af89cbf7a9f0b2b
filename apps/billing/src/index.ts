/** What other workspaces (standalone, tests) compose billing from; the distributed service's Nest module and gRPC handlers load only with its main.ts. */
export { createBillingDomain, openBillingDataSource, BILLING_SCHEMA } from './billing.domain';
export type { BillingDomain, BillingDomainDeps, BillingMode, OpenBillingDataSourceOptions } from './billing.domain';
export { BillingService } from './domain/billing.service';
export { UsageSettler } from './domain/usage-settler';
export type { SettleOutcome } from './domain/usage-event';
export { EmbeddedLedger, COMMIT_WINDOW_MS } from './embedded/embedded-ledger';
export { Reconciler, type ReconcileReport } from './distributed/reconciler';
export { BOOTSTRAP_ACCOUNT_NAME, type BootstrapResult } from './domain/bootstrap';
export { generateApiKey, hashApiKey } from './domain/api-key-material';
export { BILLING_ENTITIES } from './domain/entities';
export { BILLING_MIGRATIONS } from './migrations';
export { BILLING_CONSUMER_GROUP } from './transport/usage.consumer';
