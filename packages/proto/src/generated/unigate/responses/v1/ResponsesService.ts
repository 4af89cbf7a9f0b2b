// Original file: proto/responses.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { Deleted as _unigate_responses_v1_Deleted, Deleted__Output as _unigate_responses_v1_Deleted__Output } from '../../../unigate/responses/v1/Deleted';
import type { InputItems as _unigate_responses_v1_InputItems, InputItems__Output as _unigate_responses_v1_InputItems__Output } from '../../../unigate/responses/v1/InputItems';
import type { InputItemsRequest as _unigate_responses_v1_InputItemsRequest, InputItemsRequest__Output as _unigate_responses_v1_InputItemsRequest__Output } from '../../../unigate/responses/v1/InputItemsRequest';
import type { ResponseRef as _unigate_responses_v1_ResponseRef, ResponseRef__Output as _unigate_responses_v1_ResponseRef__Output } from '../../../unigate/responses/v1/ResponseRef';
import type { StoredResponse as _unigate_responses_v1_StoredResponse, StoredResponse__Output as _unigate_responses_v1_StoredResponse__Output } from '../../../unigate/responses/v1/StoredResponse';

export interface ResponsesServiceClient extends grpc.Client {
  DeleteResponse(argument: _unigate_responses_v1_ResponseRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_responses_v1_Deleted__Output>): grpc.ClientUnaryCall;
  DeleteResponse(argument: _unigate_responses_v1_ResponseRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_responses_v1_Deleted__Output>): grpc.ClientUnaryCall;
  DeleteResponse(argument: _unigate_responses_v1_ResponseRef, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_responses_v1_Deleted__Output>): grpc.ClientUnaryCall;
  DeleteResponse(argument: _unigate_responses_v1_ResponseRef, callback: grpc.requestCallback<_unigate_responses_v1_Deleted__Output>): grpc.ClientUnaryCall;
  deleteResponse(argument: _unigate_responses_v1_ResponseRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_responses_v1_Deleted__Output>): grpc.ClientUnaryCall;
  deleteResponse(argument: _unigate_responses_v1_ResponseRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_responses_v1_Deleted__Output>): grpc.ClientUnaryCall;
  deleteResponse(argument: _unigate_responses_v1_ResponseRef, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_responses_v1_Deleted__Output>): grpc.ClientUnaryCall;
  deleteResponse(argument: _unigate_responses_v1_ResponseRef, callback: grpc.requestCallback<_unigate_responses_v1_Deleted__Output>): grpc.ClientUnaryCall;
  
  GetResponse(argument: _unigate_responses_v1_ResponseRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_responses_v1_StoredResponse__Output>): grpc.ClientUnaryCall;
  GetResponse(argument: _unigate_responses_v1_ResponseRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_responses_v1_StoredResponse__Output>): grpc.ClientUnaryCall;
  GetResponse(argument: _unigate_responses_v1_ResponseRef, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_responses_v1_StoredResponse__Output>): grpc.ClientUnaryCall;
  GetResponse(argument: _unigate_responses_v1_ResponseRef, callback: grpc.requestCallback<_unigate_responses_v1_StoredResponse__Output>): grpc.ClientUnaryCall;
  getResponse(argument: _unigate_responses_v1_ResponseRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_responses_v1_StoredResponse__Output>): grpc.ClientUnaryCall;
  getResponse(argument: _unigate_responses_v1_ResponseRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_responses_v1_StoredResponse__Output>): grpc.ClientUnaryCall;
  getResponse(argument: _unigate_responses_v1_ResponseRef, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_responses_v1_StoredResponse__Output>): grpc.ClientUnaryCall;
  getResponse(argument: _unigate_responses_v1_ResponseRef, callback: grpc.requestCallback<_unigate_responses_v1_StoredResponse__Output>): grpc.ClientUnaryCall;
  
  ListInputItems(argument: _unigate_responses_v1_InputItemsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_responses_v1_InputItems__Output>): grpc.ClientUnaryCall;
  ListInputItems(argument: _unigate_responses_v1_InputItemsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_responses_v1_InputItems__Output>): grpc.ClientUnaryCall;
  ListInputItems(argument: _unigate_responses_v1_InputItemsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_responses_v1_InputItems__Output>): grpc.ClientUnaryCall;
  ListInputItems(argument: _unigate_responses_v1_InputItemsRequest, callback: grpc.requestCallback<_unigate_responses_v1_InputItems__Output>): grpc.ClientUnaryCall;
  listInputItems(argument: _unigate_responses_v1_InputItemsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_responses_v1_InputItems__Output>): grpc.ClientUnaryCall;
  listInputItems(argument: _unigate_responses_v1_InputItemsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_responses_v1_InputItems__Output>): grpc.ClientUnaryCall;
  listInputItems(argument: _unigate_responses_v1_InputItemsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_responses_v1_InputItems__Output>): grpc.ClientUnaryCall;
  listInputItems(argument: _unigate_responses_v1_InputItemsRequest, callback: grpc.requestCallback<_unigate_responses_v1_InputItems__Output>): grpc.ClientUnaryCall;
  
}

export interface ResponsesServiceHandlers extends grpc.UntypedServiceImplementation {
  DeleteResponse: grpc.handleUnaryCall<_unigate_responses_v1_ResponseRef__Output, _unigate_responses_v1_Deleted>;
  
  GetResponse: grpc.handleUnaryCall<_unigate_responses_v1_ResponseRef__Output, _unigate_responses_v1_StoredResponse>;
  
  ListInputItems: grpc.handleUnaryCall<_unigate_responses_v1_InputItemsRequest__Output, _unigate_responses_v1_InputItems>;
  
}

export interface ResponsesServiceDefinition extends grpc.ServiceDefinition {
  DeleteResponse: MethodDefinition<_unigate_responses_v1_ResponseRef, _unigate_responses_v1_Deleted, _unigate_responses_v1_ResponseRef__Output, _unigate_responses_v1_Deleted__Output>
  GetResponse: MethodDefinition<_unigate_responses_v1_ResponseRef, _unigate_responses_v1_StoredResponse, _unigate_responses_v1_ResponseRef__Output, _unigate_responses_v1_StoredResponse__Output>
  ListInputItems: MethodDefinition<_unigate_responses_v1_InputItemsRequest, _unigate_responses_v1_InputItems, _unigate_responses_v1_InputItemsRequest__Output, _unigate_responses_v1_InputItems__Output>
}
