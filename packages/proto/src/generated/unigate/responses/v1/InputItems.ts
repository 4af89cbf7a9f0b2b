// Original file: proto/responses.proto


export interface InputItems {
  'list'?: (Buffer | Uint8Array | string);
}

export interface InputItems__Output {
  'list': (Buffer);
}
