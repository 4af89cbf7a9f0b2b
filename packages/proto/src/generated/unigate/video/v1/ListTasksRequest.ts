// Original file: proto/video.proto


export interface ListTasksRequest {
  'account_id'?: (string);
  'limit'?: (number);
}

export interface ListTasksRequest__Output {
  'account_id': (string);
  'limit': (number);
}
