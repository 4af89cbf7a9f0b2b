// Original file: proto/billing.proto

import type { User as _unigate_billing_v1_User, User__Output as _unigate_billing_v1_User__Output } from '../../../unigate/billing/v1/User';

export interface VerifyUserReply {
  'found'?: (boolean);
  'user'?: (_unigate_billing_v1_User | null);
}

export interface VerifyUserReply__Output {
  'found': (boolean);
  'user': (_unigate_billing_v1_User__Output | null);
}
