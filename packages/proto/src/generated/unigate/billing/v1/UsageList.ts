// Original file: proto/billing.proto

import type { LedgerEntry as _unigate_billing_v1_LedgerEntry, LedgerEntry__Output as _unigate_billing_v1_LedgerEntry__Output } from '../../../unigate/billing/v1/LedgerEntry';

export interface UsageList {
  'entries'?: (_unigate_billing_v1_LedgerEntry)[];
  'has_more'?: (boolean);
}

export interface UsageList__Output {
  'entries': (_unigate_billing_v1_LedgerEntry__Output)[];
  'has_more': (boolean);
}
