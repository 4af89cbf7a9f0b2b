// Original file: proto/endpoint.proto


export interface SessionError {
  'code'?: (number);
  'details'?: (string);
}

export interface SessionError__Output {
  'code': (number);
  'details': (string);
}
