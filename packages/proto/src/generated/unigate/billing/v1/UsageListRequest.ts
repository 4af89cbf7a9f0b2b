// Original file: proto/billing.proto


export interface UsageListRequest {
  'account_id'?: (string);
  'limit'?: (number);
  'after'?: (string);
}

export interface UsageListRequest__Output {
  'account_id': (string);
  'limit': (number);
  'after': (string);
}
