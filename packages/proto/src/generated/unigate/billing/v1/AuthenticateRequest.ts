// Original file: proto/billing.proto


export interface AuthenticateRequest {
  'key_hash'?: (string);
}

export interface AuthenticateRequest__Output {
  'key_hash': (string);
}
