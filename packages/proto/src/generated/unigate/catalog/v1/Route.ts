// Original file: proto/catalog.proto


export interface Route {
  'json'?: (string);
}

export interface Route__Output {
  'json': (string);
}
