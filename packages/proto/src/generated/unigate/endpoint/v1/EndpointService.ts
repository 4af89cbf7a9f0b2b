// Original file: proto/endpoint.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { EndpointCall as _unigate_endpoint_v1_EndpointCall, EndpointCall__Output as _unigate_endpoint_v1_EndpointCall__Output } from '../../../unigate/endpoint/v1/EndpointCall';
import type { EndpointFrame as _unigate_endpoint_v1_EndpointFrame, EndpointFrame__Output as _unigate_endpoint_v1_EndpointFrame__Output } from '../../../unigate/endpoint/v1/EndpointFrame';
import type { EndpointReply as _unigate_endpoint_v1_EndpointReply, EndpointReply__Output as _unigate_endpoint_v1_EndpointReply__Output } from '../../../unigate/endpoint/v1/EndpointReply';
import type { SessionCall as _unigate_endpoint_v1_SessionCall, SessionCall__Output as _unigate_endpoint_v1_SessionCall__Output } from '../../../unigate/endpoint/v1/SessionCall';
import type { SessionReply as _unigate_endpoint_v1_SessionReply, SessionReply__Output as _unigate_endpoint_v1_SessionReply__Output } from '../../../unigate/endpoint/v1/SessionReply';

export interface EndpointServiceClient extends grpc.Client {
  Call(argument: _unigate_endpoint_v1_EndpointCall, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_endpoint_v1_EndpointReply__Output>): grpc.ClientUnaryCall;
  Call(argument: _unigate_endpoint_v1_EndpointCall, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_endpoint_v1_EndpointReply__Output>): grpc.ClientUnaryCall;
  Call(argument: _unigate_endpoint_v1_EndpointCall, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_endpoint_v1_EndpointReply__Output>): grpc.ClientUnaryCall;
  Call(argument: _unigate_endpoint_v1_EndpointCall, callback: grpc.requestCallback<_unigate_endpoint_v1_EndpointReply__Output>): grpc.ClientUnaryCall;
  call(argument: _unigate_endpoint_v1_EndpointCall, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_endpoint_v1_EndpointReply__Output>): grpc.ClientUnaryCall;
  call(argument: _unigate_endpoint_v1_EndpointCall, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_endpoint_v1_EndpointReply__Output>): grpc.ClientUnaryCall;
  call(argument: _unigate_endpoint_v1_EndpointCall, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_endpoint_v1_EndpointReply__Output>): grpc.ClientUnaryCall;
  call(argument: _unigate_endpoint_v1_EndpointCall, callback: grpc.requestCallback<_unigate_endpoint_v1_EndpointReply__Output>): grpc.ClientUnaryCall;
  
  Session(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_unigate_endpoint_v1_SessionCall, _unigate_endpoint_v1_SessionReply__Output>;
  Session(options?: grpc.CallOptions): grpc.ClientDuplexStream<_unigate_endpoint_v1_SessionCall, _unigate_endpoint_v1_SessionReply__Output>;
  session(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_unigate_endpoint_v1_SessionCall, _unigate_endpoint_v1_SessionReply__Output>;
  session(options?: grpc.CallOptions): grpc.ClientDuplexStream<_unigate_endpoint_v1_SessionCall, _unigate_endpoint_v1_SessionReply__Output>;
  
  Stream(argument: _unigate_endpoint_v1_EndpointCall, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_unigate_endpoint_v1_EndpointFrame__Output>;
  Stream(argument: _unigate_endpoint_v1_EndpointCall, options?: grpc.CallOptions): grpc.ClientReadableStream<_unigate_endpoint_v1_EndpointFrame__Output>;
  stream(argument: _unigate_endpoint_v1_EndpointCall, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_unigate_endpoint_v1_EndpointFrame__Output>;
  stream(argument: _unigate_endpoint_v1_EndpointCall, options?: grpc.CallOptions): grpc.ClientReadableStream<_unigate_endpoint_v1_EndpointFrame__Output>;
  
}

export interface EndpointServiceHandlers extends grpc.UntypedServiceImplementation {
  Call: grpc.handleUnaryCall<_unigate_endpoint_v1_EndpointCall__Output, _unigate_endpoint_v1_EndpointReply>;
  
  Session: grpc.handleBidiStreamingCall<_unigate_endpoint_v1_SessionCall__Output, _unigate_endpoint_v1_SessionReply>;
  
  Stream: grpc.handleServerStreamingCall<_unigate_endpoint_v1_EndpointCall__Output, _unigate_endpoint_v1_EndpointFrame>;
  
}

export interface EndpointServiceDefinition extends grpc.ServiceDefinition {
  Call: MethodDefinition<_unigate_endpoint_v1_EndpointCall, _unigate_endpoint_v1_EndpointReply, _unigate_endpoint_v1_EndpointCall__Output, _unigate_endpoint_v1_EndpointReply__Output>
  Session: MethodDefinition<_unigate_endpoint_v1_SessionCall, _unigate_endpoint_v1_SessionReply, _unigate_endpoint_v1_SessionCall__Output, _unigate_endpoint_v1_SessionReply__Output>
  Stream: MethodDefinition<_unigate_endpoint_v1_EndpointCall, _unigate_endpoint_v1_EndpointFrame, _unigate_endpoint_v1_EndpointCall__Output, _unigate_endpoint_v1_EndpointFrame__Output>
}
