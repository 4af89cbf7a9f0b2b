// Original file: proto/catalog.proto


export interface ResolveRequest {
  'model'?: (string);
}

export interface ResolveRequest__Output {
  'model': (string);
}
