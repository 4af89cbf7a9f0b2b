// Original file: proto/endpoint.proto

import type { CallCost as _unigate_endpoint_v1_CallCost, CallCost__Output as _unigate_endpoint_v1_CallCost__Output } from '../../../unigate/endpoint/v1/CallCost';

export interface SessionError {
  'code'?: (number);
  'details'?: (string);
  'cost'?: (_unigate_endpoint_v1_CallCost | null);
}

export interface SessionError__Output {
  'code': (number);
  'details': (string);
  'cost': (_unigate_endpoint_v1_CallCost__Output | null);
}
