// Original file: proto/billing.proto


export interface UsageList {
  'json'?: (string);
}

export interface UsageList__Output {
  'json': (string);
}
