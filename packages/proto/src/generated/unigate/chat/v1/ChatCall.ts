// Original file: proto/chat.proto


export interface ChatCall {
  'request_id'?: (string);
  'account_id'?: (string);
  'key_id'?: (string);
  'hold_id'?: (string);
  'route_json'?: (string);
  'body_json'?: (string);
  'traceparent'?: (string);
  'betas'?: (string)[];
}

export interface ChatCall__Output {
  'request_id': (string);
  'account_id': (string);
  'key_id': (string);
  'hold_id': (string);
  'route_json': (string);
  'body_json': (string);
  'traceparent': (string);
  'betas': (string)[];
}
