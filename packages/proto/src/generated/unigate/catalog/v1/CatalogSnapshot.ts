// Original file: proto/catalog.proto


export interface CatalogSnapshot {
  'snapshot'?: (Buffer | Uint8Array | string);
}

export interface CatalogSnapshot__Output {
  'snapshot': (Buffer);
}
