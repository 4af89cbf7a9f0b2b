// Original file: proto/billing.proto

import type { Long } from '@grpc/proto-loader';

export interface RegisterUserRequest {
  'email'?: (string);
  'password'?: (string);
  'credit_micros'?: (number | string | Long);
  'tier'?: (string);
}

export interface RegisterUserRequest__Output {
  'email': (string);
  'password': (string);
  'credit_micros': (string);
  'tier': (string);
}
