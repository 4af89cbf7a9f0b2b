// Original file: proto/endpoint.proto

import type { EndpointCall as _unigate_endpoint_v1_EndpointCall, EndpointCall__Output as _unigate_endpoint_v1_EndpointCall__Output } from '../../../unigate/endpoint/v1/EndpointCall';

export interface SessionCall {
  'call'?: (_unigate_endpoint_v1_EndpointCall | null);
  'stream'?: (boolean);
}

export interface SessionCall__Output {
  'call': (_unigate_endpoint_v1_EndpointCall__Output | null);
  'stream': (boolean);
}
