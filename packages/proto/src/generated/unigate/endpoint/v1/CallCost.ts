// Original file: proto/endpoint.proto

import type { Long } from '@grpc/proto-loader';

export interface CallCost {
  'micros'?: (number | string | Long);
}

export interface CallCost__Output {
  'micros': (string);
}
