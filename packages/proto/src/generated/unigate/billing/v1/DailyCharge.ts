// Original file: proto/billing.proto

import type { Long } from '@grpc/proto-loader';

export interface DailyCharge {
  'date'?: (string);
  'charged_micros'?: (number | string | Long);
}

export interface DailyCharge__Output {
  'date': (string);
  'charged_micros': (string);
}
