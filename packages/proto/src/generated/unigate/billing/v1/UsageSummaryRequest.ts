// Original file: proto/billing.proto


export interface UsageSummaryRequest {
  'account_id'?: (string);
  'from'?: (string);
  'to'?: (string);
}

export interface UsageSummaryRequest__Output {
  'account_id': (string);
  'from': (string);
  'to': (string);
}
