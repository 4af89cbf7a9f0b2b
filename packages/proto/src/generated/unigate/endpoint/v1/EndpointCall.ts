// Original file: proto/endpoint.proto

import type { Attachment as _unigate_endpoint_v1_Attachment, Attachment__Output as _unigate_endpoint_v1_Attachment__Output } from '../../../unigate/endpoint/v1/Attachment';
import type { Blob as _unigate_endpoint_v1_Blob, Blob__Output as _unigate_endpoint_v1_Blob__Output } from '../../../unigate/endpoint/v1/Blob';

export interface EndpointCall {
  'endpoint'?: (string);
  'request_id'?: (string);
  'account_id'?: (string);
  'key_id'?: (string);
  'hold_id'?: (string);
  'route'?: (Buffer | Uint8Array | string);
  'body'?: (Buffer | Uint8Array | string);
  'options'?: ({[key: string]: string});
  'files'?: (_unigate_endpoint_v1_Attachment)[];
  'traceparent'?: (string);
  'tier'?: (string);
  'body_blobs'?: (_unigate_endpoint_v1_Blob)[];
}

export interface EndpointCall__Output {
  'endpoint': (string);
  'request_id': (string);
  'account_id': (string);
  'key_id': (string);
  'hold_id': (string);
  'route': (Buffer);
  'body': (Buffer);
  'options': ({[key: string]: string});
  'files': (_unigate_endpoint_v1_Attachment__Output)[];
  'traceparent': (string);
  'tier': (string);
  'body_blobs': (_unigate_endpoint_v1_Blob__Output)[];
}
