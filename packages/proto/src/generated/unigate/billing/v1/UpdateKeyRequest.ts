// Original file: proto/billing.proto

import type { ModelList as _unigate_billing_v1_ModelList, ModelList__Output as _unigate_billing_v1_ModelList__Output } from '../../../unigate/billing/v1/ModelList';

export interface UpdateKeyRequest {
  'key_id'?: (string);
  'name'?: (string);
  'models'?: (_unigate_billing_v1_ModelList | null);
  'rate_limit_rpm'?: (number);
  'max_concurrency'?: (number);
  '_name'?: "name";
  '_rate_limit_rpm'?: "rate_limit_rpm";
  '_max_concurrency'?: "max_concurrency";
}

export interface UpdateKeyRequest__Output {
  'key_id': (string);
  'name'?: (string);
  'models': (_unigate_billing_v1_ModelList__Output | null);
  'rate_limit_rpm'?: (number);
  'max_concurrency'?: (number);
  '_name'?: "name";
  '_rate_limit_rpm'?: "rate_limit_rpm";
  '_max_concurrency'?: "max_concurrency";
}
