// Original file: proto/billing.proto

import type { Long } from '@grpc/proto-loader';

export interface LedgerEntry {
  'id'?: (string);
  'request_id'?: (string);
  'model'?: (string);
  'kind'?: (string);
  'input_tokens'?: (number | string | Long);
  'cached_input_tokens'?: (number | string | Long);
  'output_tokens'?: (number | string | Long);
  'cost_micros'?: (number | string | Long);
  'created_at'?: (string);
  'units'?: (Buffer | Uint8Array | string);
}

export interface LedgerEntry__Output {
  'id': (string);
  'request_id': (string);
  'model': (string);
  'kind': (string);
  'input_tokens': (string);
  'cached_input_tokens': (string);
  'output_tokens': (string);
  'cost_micros': (string);
  'created_at': (string);
  'units': (Buffer);
}
