// Original file: proto/endpoint.proto


export interface EndpointReply {
  'body'?: (Buffer | Uint8Array | string);
  'upstream_ms'?: (number | string);
}

export interface EndpointReply__Output {
  'body': (Buffer);
  'upstream_ms': (number);
}
