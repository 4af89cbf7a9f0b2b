// Original file: proto/catalog.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CatalogSnapshot as _unigate_catalog_v1_CatalogSnapshot, CatalogSnapshot__Output as _unigate_catalog_v1_CatalogSnapshot__Output } from '../../../unigate/catalog/v1/CatalogSnapshot';
import type { ListRequest as _unigate_catalog_v1_ListRequest, ListRequest__Output as _unigate_catalog_v1_ListRequest__Output } from '../../../unigate/catalog/v1/ListRequest';
import type { ModelList as _unigate_catalog_v1_ModelList, ModelList__Output as _unigate_catalog_v1_ModelList__Output } from '../../../unigate/catalog/v1/ModelList';
import type { ResolveRequest as _unigate_catalog_v1_ResolveRequest, ResolveRequest__Output as _unigate_catalog_v1_ResolveRequest__Output } from '../../../unigate/catalog/v1/ResolveRequest';
import type { Route as _unigate_catalog_v1_Route, Route__Output as _unigate_catalog_v1_Route__Output } from '../../../unigate/catalog/v1/Route';

export interface CatalogServiceClient extends grpc.Client {
  List(argument: _unigate_catalog_v1_ListRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_catalog_v1_ModelList__Output>): grpc.ClientUnaryCall;
  List(argument: _unigate_catalog_v1_ListRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_catalog_v1_ModelList__Output>): grpc.ClientUnaryCall;
  List(argument: _unigate_catalog_v1_ListRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_catalog_v1_ModelList__Output>): grpc.ClientUnaryCall;
  List(argument: _unigate_catalog_v1_ListRequest, callback: grpc.requestCallback<_unigate_catalog_v1_ModelList__Output>): grpc.ClientUnaryCall;
  list(argument: _unigate_catalog_v1_ListRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_catalog_v1_ModelList__Output>): grpc.ClientUnaryCall;
  list(argument: _unigate_catalog_v1_ListRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_catalog_v1_ModelList__Output>): grpc.ClientUnaryCall;
  list(argument: _unigate_catalog_v1_ListRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_catalog_v1_ModelList__Output>): grpc.ClientUnaryCall;
  list(argument: _unigate_catalog_v1_ListRequest, callback: grpc.requestCallback<_unigate_catalog_v1_ModelList__Output>): grpc.ClientUnaryCall;
  
  Resolve(argument: _unigate_catalog_v1_ResolveRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_catalog_v1_Route__Output>): grpc.ClientUnaryCall;
  Resolve(argument: _unigate_catalog_v1_ResolveRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_catalog_v1_Route__Output>): grpc.ClientUnaryCall;
  Resolve(argument: _unigate_catalog_v1_ResolveRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_catalog_v1_Route__Output>): grpc.ClientUnaryCall;
  Resolve(argument: _unigate_catalog_v1_ResolveRequest, callback: grpc.requestCallback<_unigate_catalog_v1_Route__Output>): grpc.ClientUnaryCall;
  resolve(argument: _unigate_catalog_v1_ResolveRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_catalog_v1_Route__Output>): grpc.ClientUnaryCall;
  resolve(argument: _unigate_catalog_v1_ResolveRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_catalog_v1_Route__Output>): grpc.ClientUnaryCall;
  resolve(argument: _unigate_catalog_v1_ResolveRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_catalog_v1_Route__Output>): grpc.ClientUnaryCall;
  resolve(argument: _unigate_catalog_v1_ResolveRequest, callback: grpc.requestCallback<_unigate_catalog_v1_Route__Output>): grpc.ClientUnaryCall;
  
  Snapshot(argument: _unigate_catalog_v1_ListRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_catalog_v1_CatalogSnapshot__Output>): grpc.ClientUnaryCall;
  Snapshot(argument: _unigate_catalog_v1_ListRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_catalog_v1_CatalogSnapshot__Output>): grpc.ClientUnaryCall;
  Snapshot(argument: _unigate_catalog_v1_ListRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_catalog_v1_CatalogSnapshot__Output>): grpc.ClientUnaryCall;
  Snapshot(argument: _unigate_catalog_v1_ListRequest, callback: grpc.requestCallback<_unigate_catalog_v1_CatalogSnapshot__Output>): grpc.ClientUnaryCall;
  snapshot(argument: _unigate_catalog_v1_ListRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_catalog_v1_CatalogSnapshot__Output>): grpc.ClientUnaryCall;
  snapshot(argument: _unigate_catalog_v1_ListRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_unigate_catalog_v1_CatalogSnapshot__Output>): grpc.ClientUnaryCall;
  snapshot(argument: _unigate_catalog_v1_ListRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_unigate_catalog_v1_CatalogSnapshot__Output>): grpc.ClientUnaryCall;
  snapshot(argument: _unigate_catalog_v1_ListRequest, callback: grpc.requestCallback<_unigate_catalog_v1_CatalogSnapshot__Output>): grpc.ClientUnaryCall;
  
}

export interface CatalogServiceHandlers extends grpc.UntypedServiceImplementation {
  List: grpc.handleUnaryCall<_unigate_catalog_v1_ListRequest__Output, _unigate_catalog_v1_ModelList>;
  
  Resolve: grpc.handleUnaryCall<_unigate_catalog_v1_ResolveRequest__Output, _unigate_catalog_v1_Route>;
  
  Snapshot: grpc.handleUnaryCall<_unigate_catalog_v1_ListRequest__Output, _unigate_catalog_v1_CatalogSnapshot>;
  
}

export interface CatalogServiceDefinition extends grpc.ServiceDefinition {
  List: MethodDefinition<_unigate_catalog_v1_ListRequest, _unigate_catalog_v1_ModelList, _unigate_catalog_v1_ListRequest__Output, _unigate_catalog_v1_ModelList__Output>
  Resolve: MethodDefinition<_unigate_catalog_v1_ResolveRequest, _unigate_catalog_v1_Route, _unigate_catalog_v1_ResolveRequest__Output, _unigate_catalog_v1_Route__Output>
  Snapshot: MethodDefinition<_unigate_catalog_v1_ListRequest, _unigate_catalog_v1_CatalogSnapshot, _unigate_catalog_v1_ListRequest__Output, _unigate_catalog_v1_CatalogSnapshot__Output>
}
