// Original file: proto/billing.proto

import type { DailyModelUsage as _unigate_billing_v1_DailyModelUsage, DailyModelUsage__Output as _unigate_billing_v1_DailyModelUsage__Output } from '../../../unigate/billing/v1/DailyModelUsage';

export interface UsageSummary {
  'rows'?: (_unigate_billing_v1_DailyModelUsage)[];
}

export interface UsageSummary__Output {
  'rows': (_unigate_billing_v1_DailyModelUsage__Output)[];
}
