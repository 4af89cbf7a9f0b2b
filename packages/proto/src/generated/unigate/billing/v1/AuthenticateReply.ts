// Original file: proto/billing.proto

import type { Principal as _unigate_billing_v1_Principal, Principal__Output as _unigate_billing_v1_Principal__Output } from '../../../unigate/billing/v1/Principal';

export interface AuthenticateReply {
  'found'?: (boolean);
  'principal'?: (_unigate_billing_v1_Principal | null);
}

export interface AuthenticateReply__Output {
  'found': (boolean);
  'principal': (_unigate_billing_v1_Principal__Output | null);
}
