import { BillingInitial1732240000000 } from './1732240000000-billing-initial';
import { BillingReservedCounter1735000000000 } from './1735000000000-billing-reserved-counter';

/** Every billing migration, oldest first (passed as classes so bundling and tests need no globbing). */
export const BILLING_MIGRATIONS = [BillingInitial1732240000000, BillingReservedCounter1735000000000];
