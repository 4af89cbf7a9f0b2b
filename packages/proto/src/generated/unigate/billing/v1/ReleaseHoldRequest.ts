// Original file: proto/billing.proto


export interface ReleaseHoldRequest {
  'account_id'?: (string);
  'hold_id'?: (string);
}

export interface ReleaseHoldRequest__Output {
  'account_id': (string);
  'hold_id': (string);
}
