// Original file: proto/billing.proto

import type { KeyInfo as _unigate_billing_v1_KeyInfo, KeyInfo__Output as _unigate_billing_v1_KeyInfo__Output } from '../../../unigate/billing/v1/KeyInfo';

export interface KeyList {
  'keys'?: (_unigate_billing_v1_KeyInfo)[];
}

export interface KeyList__Output {
  'keys': (_unigate_billing_v1_KeyInfo__Output)[];
}
