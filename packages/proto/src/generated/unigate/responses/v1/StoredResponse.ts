// Original file: proto/responses.proto


export interface StoredResponse {
  'response'?: (Buffer | Uint8Array | string);
}

export interface StoredResponse__Output {
  'response': (Buffer);
}
