// Original file: proto/video.proto


export interface WebhookSecret {
  'secret'?: (string);
}

export interface WebhookSecret__Output {
  'secret': (string);
}
