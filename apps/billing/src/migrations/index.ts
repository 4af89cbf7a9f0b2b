import { BillingInitial1732240000000 } from './1732240000000-billing-initial';
import { BillingReservedCounter1735000000000 } from './1735000000000-billing-reserved-counter';
import { LedgerUnits1736000000000 } from './1736000000000-ledger-units';
import { HoldsLeavePostgres1737000000000 } from './1737000000000-holds-leave-postgres';
import { DashboardUsers1738000000000 } from './1738000000000-dashboard-users';
import { AccountTier1739700000000 } from './1739700000000-account-tier';
import { CreditsByAccount1739800000000 } from './1739800000000-credits-by-account';

/** Every billing migration, oldest first (passed as classes so bundling and tests need no globbing). */
export const BILLING_MIGRATIONS = [
  BillingInitial1732240000000,
  BillingReservedCounter1735000000000,
  LedgerUnits1736000000000,
  HoldsLeavePostgres1737000000000,
  DashboardUsers1738000000000,
  AccountTier1739700000000,
  CreditsByAccount1739800000000,
];
