// Original file: proto/video.proto


export interface WebhookSecretRequest {
  'account_id'?: (string);
}

export interface WebhookSecretRequest__Output {
  'account_id': (string);
}
