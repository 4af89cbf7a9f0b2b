// Original file: proto/billing.proto


export interface User {
  'id'?: (string);
  'email'?: (string);
  'account_id'?: (string);
}

export interface User__Output {
  'id': (string);
  'email': (string);
  'account_id': (string);
}
