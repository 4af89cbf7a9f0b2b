// Original file: proto/billing.proto


export interface Account {
  'id'?: (string);
  'name'?: (string);
  'balance_usd'?: (number | string);
  'reserved_usd'?: (number | string);
}

export interface Account__Output {
  'id': (string);
  'name': (string);
  'balance_usd': (number);
  'reserved_usd': (number);
}
