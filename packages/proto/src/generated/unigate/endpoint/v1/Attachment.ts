// Original file: proto/endpoint.proto


export interface Attachment {
  'field'?: (string);
  'filename'?: (string);
  'content_type'?: (string);
  'data'?: (Buffer | Uint8Array | string);
}

export interface Attachment__Output {
  'field': (string);
  'filename': (string);
  'content_type': (string);
  'data': (Buffer);
}
