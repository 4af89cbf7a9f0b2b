// Original file: proto/catalog.proto


export interface ModelList {
  'json'?: (string);
}

export interface ModelList__Output {
  'json': (string);
}
