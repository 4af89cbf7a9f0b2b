// Original file: proto/billing.proto


export interface CreatedKey {
  'id'?: (string);
  'key'?: (string);
}

export interface CreatedKey__Output {
  'id': (string);
  'key': (string);
}
