// Original file: proto/endpoint.proto

import type { CallCost as _unigate_endpoint_v1_CallCost, CallCost__Output as _unigate_endpoint_v1_CallCost__Output } from '../../../unigate/endpoint/v1/CallCost';

export interface SessionEnd {
  'cost'?: (_unigate_endpoint_v1_CallCost | null);
}

export interface SessionEnd__Output {
  'cost': (_unigate_endpoint_v1_CallCost__Output | null);
}
