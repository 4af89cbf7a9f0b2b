// Original file: proto/catalog.proto


export interface Route {
  'route'?: (Buffer | Uint8Array | string);
}

export interface Route__Output {
  'route': (Buffer);
}
