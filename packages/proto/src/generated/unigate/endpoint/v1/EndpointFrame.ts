// Original file: proto/endpoint.proto


export interface EndpointFrame {
  'item'?: (Buffer | Uint8Array | string);
  'data'?: (Buffer | Uint8Array | string);
  'upstream_ms'?: (number | string);
}

export interface EndpointFrame__Output {
  'item': (Buffer);
  'data': (Buffer);
  'upstream_ms': (number);
}
