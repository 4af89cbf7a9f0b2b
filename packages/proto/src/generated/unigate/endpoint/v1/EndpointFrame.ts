// Original file: proto/endpoint.proto

import type { Blob as _unigate_endpoint_v1_Blob, Blob__Output as _unigate_endpoint_v1_Blob__Output } from '../../../unigate/endpoint/v1/Blob';

export interface EndpointFrame {
  'item'?: (Buffer | Uint8Array | string);
  'data'?: (Buffer | Uint8Array | string);
  'upstream_ms'?: (number | string);
  'blobs'?: (_unigate_endpoint_v1_Blob)[];
  'event'?: (string);
}

export interface EndpointFrame__Output {
  'item': (Buffer);
  'data': (Buffer);
  'upstream_ms': (number);
  'blobs': (_unigate_endpoint_v1_Blob__Output)[];
  'event': (string);
}
