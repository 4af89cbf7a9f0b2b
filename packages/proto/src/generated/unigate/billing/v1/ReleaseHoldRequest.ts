// Original file: proto/billing.proto


export interface ReleaseHoldRequest {
  'hold_id'?: (string);
}

export interface ReleaseHoldRequest__Output {
  'hold_id': (string);
}
