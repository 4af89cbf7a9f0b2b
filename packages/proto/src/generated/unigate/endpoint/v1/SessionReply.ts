// Original file: proto/endpoint.proto

import type { EndpointReply as _unigate_endpoint_v1_EndpointReply, EndpointReply__Output as _unigate_endpoint_v1_EndpointReply__Output } from '../../../unigate/endpoint/v1/EndpointReply';
import type { EndpointFrame as _unigate_endpoint_v1_EndpointFrame, EndpointFrame__Output as _unigate_endpoint_v1_EndpointFrame__Output } from '../../../unigate/endpoint/v1/EndpointFrame';
import type { SessionEnd as _unigate_endpoint_v1_SessionEnd, SessionEnd__Output as _unigate_endpoint_v1_SessionEnd__Output } from '../../../unigate/endpoint/v1/SessionEnd';
import type { SessionError as _unigate_endpoint_v1_SessionError, SessionError__Output as _unigate_endpoint_v1_SessionError__Output } from '../../../unigate/endpoint/v1/SessionError';

export interface SessionReply {
  'reply'?: (_unigate_endpoint_v1_EndpointReply | null);
  'frame'?: (_unigate_endpoint_v1_EndpointFrame | null);
  'end'?: (_unigate_endpoint_v1_SessionEnd | null);
  'error'?: (_unigate_endpoint_v1_SessionError | null);
  'kind'?: "reply"|"frame"|"end"|"error";
}

export interface SessionReply__Output {
  'reply'?: (_unigate_endpoint_v1_EndpointReply__Output | null);
  'frame'?: (_unigate_endpoint_v1_EndpointFrame__Output | null);
  'end'?: (_unigate_endpoint_v1_SessionEnd__Output | null);
  'error'?: (_unigate_endpoint_v1_SessionError__Output | null);
  'kind'?: "reply"|"frame"|"end"|"error";
}
