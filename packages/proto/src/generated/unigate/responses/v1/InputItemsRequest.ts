// Original file: proto/responses.proto


export interface InputItemsRequest {
  'account_id'?: (string);
  'id'?: (string);
  'query'?: (Buffer | Uint8Array | string);
}

export interface InputItemsRequest__Output {
  'account_id': (string);
  'id': (string);
  'query': (Buffer);
}
