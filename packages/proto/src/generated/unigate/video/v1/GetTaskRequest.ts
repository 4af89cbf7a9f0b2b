// Original file: proto/video.proto


export interface GetTaskRequest {
  'account_id'?: (string);
  'id'?: (string);
}

export interface GetTaskRequest__Output {
  'account_id': (string);
  'id': (string);
}
