// Original file: proto/endpoint.proto

import type { Blob as _unigate_endpoint_v1_Blob, Blob__Output as _unigate_endpoint_v1_Blob__Output } from '../../../unigate/endpoint/v1/Blob';

export interface EndpointReply {
  'body'?: (Buffer | Uint8Array | string);
  'upstream_ms'?: (number | string);
  'blobs'?: (_unigate_endpoint_v1_Blob)[];
}

export interface EndpointReply__Output {
  'body': (Buffer);
  'upstream_ms': (number);
  'blobs': (_unigate_endpoint_v1_Blob__Output)[];
}
