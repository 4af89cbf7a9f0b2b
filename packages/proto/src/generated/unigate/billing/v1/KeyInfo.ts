// Original file: proto/billing.proto


export interface KeyInfo {
  'id'?: (string);
  'name'?: (string);
  'prefix'?: (string);
  'created_at'?: (string);
  'revoked_at'?: (string);
}

export interface KeyInfo__Output {
  'id': (string);
  'name': (string);
  'prefix': (string);
  'created_at': (string);
  'revoked_at': (string);
}
