// Original file: proto/billing.proto


export interface VerifyUserRequest {
  'email'?: (string);
  'password'?: (string);
}

export interface VerifyUserRequest__Output {
  'email': (string);
  'password': (string);
}
