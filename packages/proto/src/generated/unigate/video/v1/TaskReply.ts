// Original file: proto/video.proto


export interface TaskReply {
  'task'?: (Buffer | Uint8Array | string);
}

export interface TaskReply__Output {
  'task': (Buffer);
}
