// Original file: proto/billing.proto


export interface HoldReply {
  'hold_id'?: (string);
}

export interface HoldReply__Output {
  'hold_id': (string);
}
