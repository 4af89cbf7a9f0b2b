// Original file: proto/billing.proto


export interface CreditReply {
  'balance_usd'?: (number | string);
}

export interface CreditReply__Output {
  'balance_usd': (number);
}
