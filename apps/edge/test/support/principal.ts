import type { KeyPrincipal } from '@unigate/contracts';

/** A paid key with no model list and no limits, for tests that stand in for billing's authenticate. */
export const TEST_PRINCIPAL: KeyPrincipal = {
  key_id: 'key_1',
  account_id: 'acct_1',
  models: [],
  rate_limit_rpm: null,
  max_concurrency: null,
  tier: 'paid',
};
