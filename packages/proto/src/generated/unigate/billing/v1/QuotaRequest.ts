// Original file: proto/billing.proto


export interface QuotaRequest {
  'account_id'?: (string);
  'from'?: (string);
  'to'?: (string);
}

export interface QuotaRequest__Output {
  'account_id': (string);
  'from': (string);
  'to': (string);
}
