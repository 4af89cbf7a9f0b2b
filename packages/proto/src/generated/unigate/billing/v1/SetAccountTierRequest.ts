// Original file: proto/billing.proto


export interface SetAccountTierRequest {
  'account_id'?: (string);
  'tier'?: (string);
}

export interface SetAccountTierRequest__Output {
  'account_id': (string);
  'tier': (string);
}
