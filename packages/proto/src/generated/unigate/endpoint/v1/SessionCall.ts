// Original file: proto/endpoint.proto

import type { EndpointCall as _unigate_endpoint_v1_EndpointCall, EndpointCall__Output as _unigate_endpoint_v1_EndpointCall__Output } from '../../../unigate/endpoint/v1/EndpointCall';
import type { SessionRelease as _unigate_endpoint_v1_SessionRelease, SessionRelease__Output as _unigate_endpoint_v1_SessionRelease__Output } from '../../../unigate/endpoint/v1/SessionRelease';
import type { SessionStop as _unigate_endpoint_v1_SessionStop, SessionStop__Output as _unigate_endpoint_v1_SessionStop__Output } from '../../../unigate/endpoint/v1/SessionStop';

export interface SessionCall {
  'call'?: (_unigate_endpoint_v1_EndpointCall | null);
  'stream'?: (boolean);
  'held'?: (boolean);
  'release'?: (_unigate_endpoint_v1_SessionRelease | null);
  'stop'?: (_unigate_endpoint_v1_SessionStop | null);
}

export interface SessionCall__Output {
  'call': (_unigate_endpoint_v1_EndpointCall__Output | null);
  'stream': (boolean);
  'held': (boolean);
  'release': (_unigate_endpoint_v1_SessionRelease__Output | null);
  'stop': (_unigate_endpoint_v1_SessionStop__Output | null);
}
