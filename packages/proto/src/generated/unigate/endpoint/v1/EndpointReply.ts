// Original file: proto/endpoint.proto

import type { Blob as _unigate_endpoint_v1_Blob, Blob__Output as _unigate_endpoint_v1_Blob__Output } from '../../../unigate/endpoint/v1/Blob';
import type { CallCost as _unigate_endpoint_v1_CallCost, CallCost__Output as _unigate_endpoint_v1_CallCost__Output } from '../../../unigate/endpoint/v1/CallCost';

export interface EndpointReply {
  'body'?: (Buffer | Uint8Array | string);
  'upstream_ms'?: (number | string);
  'blobs'?: (_unigate_endpoint_v1_Blob)[];
  'cost'?: (_unigate_endpoint_v1_CallCost | null);
}

export interface EndpointReply__Output {
  'body': (Buffer);
  'upstream_ms': (number);
  'blobs': (_unigate_endpoint_v1_Blob__Output)[];
  'cost': (_unigate_endpoint_v1_CallCost__Output | null);
}
