// Original file: proto/endpoint.proto


export interface Blob {
  'path'?: (string)[];
  'data'?: (Buffer | Uint8Array | string);
}

export interface Blob__Output {
  'path': (string)[];
  'data': (Buffer);
}
