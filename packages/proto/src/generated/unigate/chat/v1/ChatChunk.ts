// Original file: proto/chat.proto


export interface ChatChunk {
  'json'?: (string);
}

export interface ChatChunk__Output {
  'json': (string);
}
