// Original file: proto/catalog.proto


export interface ModelList {
  'models'?: (Buffer | Uint8Array | string)[];
}

export interface ModelList__Output {
  'models': (Buffer)[];
}
