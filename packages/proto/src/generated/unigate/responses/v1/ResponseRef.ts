// Original file: proto/responses.proto


export interface ResponseRef {
  'account_id'?: (string);
  'id'?: (string);
}

export interface ResponseRef__Output {
  'account_id': (string);
  'id': (string);
}
