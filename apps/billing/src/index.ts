/** What other workspaces (standalone, tests) compose billing from. */
export { createBillingDomain, openBillingDataSource, BILLING_SCHEMA } from './billing.domain';
export type { BillingDomain, BillingDomainDeps, OpenBillingDataSourceOptions } from './billing.domain';
export { BillingAppModule } from './billing.module';
export { BillingService } from './domain/billing.service';
export { UsageSettler, type SettleOutcome } from './domain/usage-settler';
export { BOOTSTRAP_ACCOUNT_NAME, type BootstrapResult } from './domain/bootstrap';
export { DEFAULT_HOLD_TTL_MS } from './domain/holds';
export { generateApiKey, hashApiKey } from './domain/api-key-material';
export { BILLING_ENTITIES } from './domain/entities';
export { BILLING_MIGRATIONS } from './migrations';
export { BILLING_CONSUMER_GROUP } from './transport/usage.consumer';
export { BillingGrpcController, BILLING_PORT } from './transport/billing.grpc.controller';
