// Original file: proto/billing.proto


export interface AccountRef {
  'account_id'?: (string);
}

export interface AccountRef__Output {
  'account_id': (string);
}
