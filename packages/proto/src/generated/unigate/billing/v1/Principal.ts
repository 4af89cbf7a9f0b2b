// Original file: proto/billing.proto


export interface Principal {
  'key_id'?: (string);
  'account_id'?: (string);
  'models'?: (string)[];
  'rate_limit_rpm'?: (number);
  'max_concurrency'?: (number);
  'tier'?: (string);
}

export interface Principal__Output {
  'key_id': (string);
  'account_id': (string);
  'models': (string)[];
  'rate_limit_rpm': (number);
  'max_concurrency': (number);
  'tier': (string);
}
