// Original file: proto/billing.proto

import type { DailyCharge as _unigate_billing_v1_DailyCharge, DailyCharge__Output as _unigate_billing_v1_DailyCharge__Output } from '../../../unigate/billing/v1/DailyCharge';
import type { Long } from '@grpc/proto-loader';

export interface Quota {
  'balance_micros'?: (number | string | Long);
  'used_micros'?: (number | string | Long);
  'reserved_micros'?: (number | string | Long);
  'daily'?: (_unigate_billing_v1_DailyCharge)[];
}

export interface Quota__Output {
  'balance_micros': (string);
  'used_micros': (string);
  'reserved_micros': (string);
  'daily': (_unigate_billing_v1_DailyCharge__Output)[];
}
