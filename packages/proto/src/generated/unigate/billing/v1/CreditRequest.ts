// Original file: proto/billing.proto

import type { Long } from '@grpc/proto-loader';

export interface CreditRequest {
  'account_id'?: (string);
  'amount_micros'?: (number | string | Long);
  'reference'?: (string);
}

export interface CreditRequest__Output {
  'account_id': (string);
  'amount_micros': (string);
  'reference': (string);
}
