// Original file: proto/billing.proto


export interface CreateKeyRequest {
  'account_id'?: (string);
  'name'?: (string);
  'models'?: (string)[];
  'rate_limit_rpm'?: (number);
  'max_concurrency'?: (number);
}

export interface CreateKeyRequest__Output {
  'account_id': (string);
  'name': (string);
  'models': (string)[];
  'rate_limit_rpm': (number);
  'max_concurrency': (number);
}
