// Original file: proto/chat.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ChatCall as _unigate_chat_v1_ChatCall, ChatCall__Output as _unigate_chat_v1_ChatCall__Output } from '../../../unigate/chat/v1/ChatCall';
import type { ChatChunk as _unigate_chat_v1_ChatChunk, ChatChunk__Output as _unigate_chat_v1_ChatChunk__Output } from '../../../unigate/chat/v1/ChatChunk';
import type { ChatCompletion as _unigate_chat_v1_ChatCompletion, ChatCompletion__Output as _unigate_chat_v1_ChatCompletion__Output } from '../../../unigate/chat/v1/ChatCompletion';

export interface ChatServiceClient extends grpc.Client {
  Complete(argument: _unigate_chat_v1_ChatCall, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_chat_v1_ChatCompletion__Output>): grpc.ClientUnaryCall;
  Complete(argument: _unigate_chat_v1_ChatCall, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_chat_v1_ChatCompletion__Output>): grpc.ClientUnaryCall;
  Complete(argument: _unigate_chat_v1_ChatCall, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_chat_v1_ChatCompletion__Output>): grpc.ClientUnaryCall;
  Complete(argument: _unigate_chat_v1_ChatCall, callback: grpc.requestCallback<_unigate_chat_v1_ChatCompletion__Output>): grpc.ClientUnaryCall;
  complete(argument: _unigate_chat_v1_ChatCall, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_chat_v1_ChatCompletion__Output>): grpc.ClientUnaryCall;
  complete(argument: _unigate_chat_v1_ChatCall, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_chat_v1_ChatCompletion__Output>): grpc.ClientUnaryCall;
  complete(argument: _unigate_chat_v1_ChatCall, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_chat_v1_ChatCompletion__Output>): grpc.ClientUnaryCall;
  complete(argument: _unigate_chat_v1_ChatCall, callback: grpc.requestCallback<_unigate_chat_v1_ChatCompletion__Output>): grpc.ClientUnaryCall;
  
  CountTokens(argument: _unigate_chat_v1_ChatCall, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_chat_v1_ChatCompletion__Output>): grpc.ClientUnaryCall;
  CountTokens(argument: _unigate_chat_v1_ChatCall, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_chat_v1_ChatCompletion__Output>): grpc.ClientUnaryCall;
  CountTokens(argument: _unigate_chat_v1_ChatCall, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_chat_v1_ChatCompletion__Output>): grpc.ClientUnaryCall;
  CountTokens(argument: _unigate_chat_v1_ChatCall, callback: grpc.requestCallback<_unigate_chat_v1_ChatCompletion__Output>): grpc.ClientUnaryCall;
  countTokens(argument: _unigate_chat_v1_ChatCall, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_chat_v1_ChatCompletion__Output>): grpc.ClientUnaryCall;
  countTokens(argument: _unigate_chat_v1_ChatCall, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_chat_v1_ChatCompletion__Output>): grpc.ClientUnaryCall;
  countTokens(argument: _unigate_chat_v1_ChatCall, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_chat_v1_ChatCompletion__Output>): grpc.ClientUnaryCall;
  countTokens(argument: _unigate_chat_v1_ChatCall, callback: grpc.requestCallback<_unigate_chat_v1_ChatCompletion__Output>): grpc.ClientUnaryCall;
  
  Messages(argument: _unigate_chat_v1_ChatCall, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_chat_v1_ChatCompletion__Output>): grpc.ClientUnaryCall;
  Messages(argument: _unigate_chat_v1_ChatCall, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_chat_v1_ChatCompletion__Output>): grpc.ClientUnaryCall;
  Messages(argument: _unigate_chat_v1_ChatCall, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_chat_v1_ChatCompletion__Output>): grpc.ClientUnaryCall;
  Messages(argument: _unigate_chat_v1_ChatCall, callback: grpc.requestCallback<_unigate_chat_v1_ChatCompletion__Output>): grpc.ClientUnaryCall;
  messages(argument: _unigate_chat_v1_ChatCall, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_chat_v1_ChatCompletion__Output>): grpc.ClientUnaryCall;
  messages(argument: _unigate_chat_v1_ChatCall, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_chat_v1_ChatCompletion__Output>): grpc.ClientUnaryCall;
  messages(argument: _unigate_chat_v1_ChatCall, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_chat_v1_ChatCompletion__Output>): grpc.ClientUnaryCall;
  messages(argument: _unigate_chat_v1_ChatCall, callback: grpc.requestCallback<_unigate_chat_v1_ChatCompletion__Output>): grpc.ClientUnaryCall;
  
  MessagesStream(argument: _unigate_chat_v1_ChatCall, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_unigate_chat_v1_ChatChunk__Output>;
  MessagesStream(argument: _unigate_chat_v1_ChatCall, options?: grpc.CallOptions): grpc.ClientReadableStream<_unigate_chat_v1_ChatChunk__Output>;
  messagesStream(argument: _unigate_chat_v1_ChatCall, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_unigate_chat_v1_ChatChunk__Output>;
  messagesStream(argument: _unigate_chat_v1_ChatCall, options?: grpc.CallOptions): grpc.ClientReadableStream<_unigate_chat_v1_ChatChunk__Output>;
  
  Stream(argument: _unigate_chat_v1_ChatCall, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_unigate_chat_v1_ChatChunk__Output>;
  Stream(argument: _unigate_chat_v1_ChatCall, options?: grpc.CallOptions): grpc.ClientReadableStream<_unigate_chat_v1_ChatChunk__Output>;
  stream(argument: _unigate_chat_v1_ChatCall, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_unigate_chat_v1_ChatChunk__Output>;
  stream(argument: _unigate_chat_v1_ChatCall, options?: grpc.CallOptions): grpc.ClientReadableStream<_unigate_chat_v1_ChatChunk__Output>;
  
}

export interface ChatServiceHandlers extends grpc.UntypedServiceImplementation {
  Complete: grpc.handleUnaryCall<_unigate_chat_v1_ChatCall__Output, _unigate_chat_v1_ChatCompletion>;
  
  CountTokens: grpc.handleUnaryCall<_unigate_chat_v1_ChatCall__Output, _unigate_chat_v1_ChatCompletion>;
  
  Messages: grpc.handleUnaryCall<_unigate_chat_v1_ChatCall__Output, _unigate_chat_v1_ChatCompletion>;
  
  MessagesStream: grpc.handleServerStreamingCall<_unigate_chat_v1_ChatCall__Output, _unigate_chat_v1_ChatChunk>;
  
  Stream: grpc.handleServerStreamingCall<_unigate_chat_v1_ChatCall__Output, _unigate_chat_v1_ChatChunk>;
  
}

export interface ChatServiceDefinition extends grpc.ServiceDefinition {
  Complete: MethodDefinition<_unigate_chat_v1_ChatCall, _unigate_chat_v1_ChatCompletion, _unigate_chat_v1_ChatCall__Output, _unigate_chat_v1_ChatCompletion__Output>
  CountTokens: MethodDefinition<_unigate_chat_v1_ChatCall, _unigate_chat_v1_ChatCompletion, _unigate_chat_v1_ChatCall__Output, _unigate_chat_v1_ChatCompletion__Output>
  Messages: MethodDefinition<_unigate_chat_v1_ChatCall, _unigate_chat_v1_ChatCompletion, _unigate_chat_v1_ChatCall__Output, _unigate_chat_v1_ChatCompletion__Output>
  MessagesStream: MethodDefinition<_unigate_chat_v1_ChatCall, _unigate_chat_v1_ChatChunk, _unigate_chat_v1_ChatCall__Output, _unigate_chat_v1_ChatChunk__Output>
  Stream: MethodDefinition<_unigate_chat_v1_ChatCall, _unigate_chat_v1_ChatChunk, _unigate_chat_v1_ChatCall__Output, _unigate_chat_v1_ChatChunk__Output>
}
