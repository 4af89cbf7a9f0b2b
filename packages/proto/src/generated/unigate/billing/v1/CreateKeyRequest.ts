// Original file: proto/billing.proto


export interface CreateKeyRequest {
  'account_id'?: (string);
  'spec_json'?: (string);
}

export interface CreateKeyRequest__Output {
  'account_id': (string);
  'spec_json': (string);
}
