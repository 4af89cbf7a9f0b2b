// Original file: proto/billing.proto


export interface ModelList {
  'models'?: (string)[];
}

export interface ModelList__Output {
  'models': (string)[];
}
