// Original file: proto/billing.proto


export interface KeySettings {
  'id'?: (string);
  'account_id'?: (string);
  'name'?: (string);
  'prefix'?: (string);
  'models'?: (string)[];
  'rate_limit_rpm'?: (number);
  'max_concurrency'?: (number);
  'created_at'?: (string);
}

export interface KeySettings__Output {
  'id': (string);
  'account_id': (string);
  'name': (string);
  'prefix': (string);
  'models': (string)[];
  'rate_limit_rpm': (number);
  'max_concurrency': (number);
  'created_at': (string);
}
