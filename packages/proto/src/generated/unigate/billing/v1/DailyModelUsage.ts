// Original file: proto/billing.proto

import type { Long } from '@grpc/proto-loader';

export interface DailyModelUsage {
  'date'?: (string);
  'model'?: (string);
  'requests'?: (number | string | Long);
  'input_tokens'?: (number | string | Long);
  'output_tokens'?: (number | string | Long);
  'cost_micros'?: (number | string | Long);
}

export interface DailyModelUsage__Output {
  'date': (string);
  'model': (string);
  'requests': (string);
  'input_tokens': (string);
  'output_tokens': (string);
  'cost_micros': (string);
}
