// Original file: proto/billing.proto

import type { Long } from '@grpc/proto-loader';

export interface Quota {
  'balance_micros'?: (number | string | Long);
  'used_micros'?: (number | string | Long);
  'reserved_micros'?: (number | string | Long);
  'daily_json'?: (string);
}

export interface Quota__Output {
  'balance_micros': (string);
  'used_micros': (string);
  'reserved_micros': (string);
  'daily_json': (string);
}
