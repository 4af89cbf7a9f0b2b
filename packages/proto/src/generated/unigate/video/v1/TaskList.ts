// Original file: proto/video.proto


export interface TaskList {
  'tasks'?: (Buffer | Uint8Array | string)[];
}

export interface TaskList__Output {
  'tasks': (Buffer)[];
}
