// Original file: proto/billing.proto

import type { Long } from '@grpc/proto-loader';

export interface CreateAccountRequest {
  'name'?: (string);
  'credit_micros'?: (number | string | Long);
  'tier'?: (string);
}

export interface CreateAccountRequest__Output {
  'name': (string);
  'credit_micros': (string);
  'tier': (string);
}
