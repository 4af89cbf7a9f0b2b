import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { GetTaskRequest as _unigate_video_v1_GetTaskRequest, GetTaskRequest__Output as _unigate_video_v1_GetTaskRequest__Output } from './unigate/video/v1/GetTaskRequest';
import type { ListTasksRequest as _unigate_video_v1_ListTasksRequest, ListTasksRequest__Output as _unigate_video_v1_ListTasksRequest__Output } from './unigate/video/v1/ListTasksRequest';
import type { TaskList as _unigate_video_v1_TaskList, TaskList__Output as _unigate_video_v1_TaskList__Output } from './unigate/video/v1/TaskList';
import type { TaskReply as _unigate_video_v1_TaskReply, TaskReply__Output as _unigate_video_v1_TaskReply__Output } from './unigate/video/v1/TaskReply';
import type { VideoServiceClient as _unigate_video_v1_VideoServiceClient, VideoServiceDefinition as _unigate_video_v1_VideoServiceDefinition } from './unigate/video/v1/VideoService';
import type { WebhookSecret as _unigate_video_v1_WebhookSecret, WebhookSecret__Output as _unigate_video_v1_WebhookSecret__Output } from './unigate/video/v1/WebhookSecret';
import type { WebhookSecretRequest as _unigate_video_v1_WebhookSecretRequest, WebhookSecretRequest__Output as _unigate_video_v1_WebhookSecretRequest__Output } from './unigate/video/v1/WebhookSecretRequest';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  unigate: {
    video: {
      v1: {
        GetTaskRequest: MessageTypeDefinition<_unigate_video_v1_GetTaskRequest, _unigate_video_v1_GetTaskRequest__Output>
        ListTasksRequest: MessageTypeDefinition<_unigate_video_v1_ListTasksRequest, _unigate_video_v1_ListTasksRequest__Output>
        TaskList: MessageTypeDefinition<_unigate_video_v1_TaskList, _unigate_video_v1_TaskList__Output>
        TaskReply: MessageTypeDefinition<_unigate_video_v1_TaskReply, _unigate_video_v1_TaskReply__Output>
        VideoService: SubtypeConstructor<typeof grpc.Client, _unigate_video_v1_VideoServiceClient> & { service: _unigate_video_v1_VideoServiceDefinition }
        WebhookSecret: MessageTypeDefinition<_unigate_video_v1_WebhookSecret, _unigate_video_v1_WebhookSecret__Output>
        WebhookSecretRequest: MessageTypeDefinition<_unigate_video_v1_WebhookSecretRequest, _unigate_video_v1_WebhookSecretRequest__Output>
      }
    }
  }
}

