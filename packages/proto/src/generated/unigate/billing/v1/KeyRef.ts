// Original file: proto/billing.proto


export interface KeyRef {
  'key_id'?: (string);
}

export interface KeyRef__Output {
  'key_id': (string);
}
