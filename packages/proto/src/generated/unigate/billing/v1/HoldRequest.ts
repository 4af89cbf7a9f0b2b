// Original file: proto/billing.proto

import type { Long } from '@grpc/proto-loader';

export interface HoldRequest {
  'request_id'?: (string);
  'account_id'?: (string);
  'key_id'?: (string);
  'amount_micros'?: (number | string | Long);
}

export interface HoldRequest__Output {
  'request_id': (string);
  'account_id': (string);
  'key_id': (string);
  'amount_micros': (string);
}
