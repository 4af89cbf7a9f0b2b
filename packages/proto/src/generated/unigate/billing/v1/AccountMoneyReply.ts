// Original file: proto/billing.proto

import type { Long } from '@grpc/proto-loader';

export interface AccountMoneyReply {
  'found'?: (boolean);
  'balance_micros'?: (number | string | Long);
  'version'?: (number | string | Long);
}

export interface AccountMoneyReply__Output {
  'found': (boolean);
  'balance_micros': (string);
  'version': (string);
}
