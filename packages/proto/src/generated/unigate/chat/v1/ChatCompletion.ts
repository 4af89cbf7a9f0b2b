// Original file: proto/chat.proto


export interface ChatCompletion {
  'json'?: (string);
}

export interface ChatCompletion__Output {
  'json': (string);
}
