// Original file: proto/video.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { GetTaskRequest as _unigate_video_v1_GetTaskRequest, GetTaskRequest__Output as _unigate_video_v1_GetTaskRequest__Output } from '../../../unigate/video/v1/GetTaskRequest';
import type { ListTasksRequest as _unigate_video_v1_ListTasksRequest, ListTasksRequest__Output as _unigate_video_v1_ListTasksRequest__Output } from '../../../unigate/video/v1/ListTasksRequest';
import type { TaskList as _unigate_video_v1_TaskList, TaskList__Output as _unigate_video_v1_TaskList__Output } from '../../../unigate/video/v1/TaskList';
import type { TaskReply as _unigate_video_v1_TaskReply, TaskReply__Output as _unigate_video_v1_TaskReply__Output } from '../../../unigate/video/v1/TaskReply';
import type { WebhookSecret as _unigate_video_v1_WebhookSecret, WebhookSecret__Output as _unigate_video_v1_WebhookSecret__Output } from '../../../unigate/video/v1/WebhookSecret';
import type { WebhookSecretRequest as _unigate_video_v1_WebhookSecretRequest, WebhookSecretRequest__Output as _unigate_video_v1_WebhookSecretRequest__Output } from '../../../unigate/video/v1/WebhookSecretRequest';

export interface VideoServiceClient extends grpc.Client {
  GetTask(argument: _unigate_video_v1_GetTaskRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_video_v1_TaskReply__Output>): grpc.ClientUnaryCall;
  GetTask(argument: _unigate_video_v1_GetTaskRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_video_v1_TaskReply__Output>): grpc.ClientUnaryCall;
  GetTask(argument: _unigate_video_v1_GetTaskRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_video_v1_TaskReply__Output>): grpc.ClientUnaryCall;
  GetTask(argument: _unigate_video_v1_GetTaskRequest, callback: grpc.requestCallback<_unigate_video_v1_TaskReply__Output>): grpc.ClientUnaryCall;
  getTask(argument: _unigate_video_v1_GetTaskRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_video_v1_TaskReply__Output>): grpc.ClientUnaryCall;
  getTask(argument: _unigate_video_v1_GetTaskRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_video_v1_TaskReply__Output>): grpc.ClientUnaryCall;
  getTask(argument: _unigate_video_v1_GetTaskRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_video_v1_TaskReply__Output>): grpc.ClientUnaryCall;
  getTask(argument: _unigate_video_v1_GetTaskRequest, callback: grpc.requestCallback<_unigate_video_v1_TaskReply__Output>): grpc.ClientUnaryCall;
  
  GetWebhookSecret(argument: _unigate_video_v1_WebhookSecretRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_video_v1_WebhookSecret__Output>): grpc.ClientUnaryCall;
  GetWebhookSecret(argument: _unigate_video_v1_WebhookSecretRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_video_v1_WebhookSecret__Output>): grpc.ClientUnaryCall;
  GetWebhookSecret(argument: _unigate_video_v1_WebhookSecretRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_video_v1_WebhookSecret__Output>): grpc.ClientUnaryCall;
  GetWebhookSecret(argument: _unigate_video_v1_WebhookSecretRequest, callback: grpc.requestCallback<_unigate_video_v1_WebhookSecret__Output>): grpc.ClientUnaryCall;
  getWebhookSecret(argument: _unigate_video_v1_WebhookSecretRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_video_v1_WebhookSecret__Output>): grpc.ClientUnaryCall;
  getWebhookSecret(argument: _unigate_video_v1_WebhookSecretRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_video_v1_WebhookSecret__Output>): grpc.ClientUnaryCall;
  getWebhookSecret(argument: _unigate_video_v1_WebhookSecretRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_video_v1_WebhookSecret__Output>): grpc.ClientUnaryCall;
  getWebhookSecret(argument: _unigate_video_v1_WebhookSecretRequest, callback: grpc.requestCallback<_unigate_video_v1_WebhookSecret__Output>): grpc.ClientUnaryCall;
  
  ListTasks(argument: _unigate_video_v1_ListTasksRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_video_v1_TaskList__Output>): grpc.ClientUnaryCall;
  ListTasks(argument: _unigate_video_v1_ListTasksRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_video_v1_TaskList__Output>): grpc.ClientUnaryCall;
  ListTasks(argument: _unigate_video_v1_ListTasksRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_video_v1_TaskList__Output>): grpc.ClientUnaryCall;
  ListTasks(argument: _unigate_video_v1_ListTasksRequest, callback: grpc.requestCallback<_unigate_video_v1_TaskList__Output>): grpc.ClientUnaryCall;
  listTasks(argument: _unigate_video_v1_ListTasksRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_video_v1_TaskList__Output>): grpc.ClientUnaryCall;
  listTasks(argument: _unigate_video_v1_ListTasksRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_video_v1_TaskList__Output>): grpc.ClientUnaryCall;
  listTasks(argument: _unigate_video_v1_ListTasksRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_video_v1_TaskList__Output>): grpc.ClientUnaryCall;
  listTasks(argument: _unigate_video_v1_ListTasksRequest, callback: grpc.requestCallback<_unigate_video_v1_TaskList__Output>): grpc.ClientUnaryCall;
  
}

export interface VideoServiceHandlers extends grpc.UntypedServiceImplementation {
  GetTask: grpc.handleUnaryCall<_unigate_video_v1_GetTaskRequest__Output, _unigate_video_v1_TaskReply>;
  
  GetWebhookSecret: grpc.handleUnaryCall<_unigate_video_v1_WebhookSecretRequest__Output, _unigate_video_v1_WebhookSecret>;
  
  ListTasks: grpc.handleUnaryCall<_unigate_video_v1_ListTasksRequest__Output, _unigate_video_v1_TaskList>;
  
}

export interface VideoServiceDefinition extends grpc.ServiceDefinition {
  GetTask: MethodDefinition<_unigate_video_v1_GetTaskRequest, _unigate_video_v1_TaskReply, _unigate_video_v1_GetTaskRequest__Output, _unigate_video_v1_TaskReply__Output>
  GetWebhookSecret: MethodDefinition<_unigate_video_v1_WebhookSecretRequest, _unigate_video_v1_WebhookSecret, _unigate_video_v1_WebhookSecretRequest__Output, _unigate_video_v1_WebhookSecret__Output>
  ListTasks: MethodDefinition<_unigate_video_v1_ListTasksRequest, _unigate_video_v1_TaskList, _unigate_video_v1_ListTasksRequest__Output, _unigate_video_v1_TaskList__Output>
}
