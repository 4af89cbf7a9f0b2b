import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { CatalogServiceClient as _unigate_catalog_v1_CatalogServiceClient, CatalogServiceDefinition as _unigate_catalog_v1_CatalogServiceDefinition } from './unigate/catalog/v1/CatalogService';
import type { CatalogSnapshot as _unigate_catalog_v1_CatalogSnapshot, CatalogSnapshot__Output as _unigate_catalog_v1_CatalogSnapshot__Output } from './unigate/catalog/v1/CatalogSnapshot';
import type { ListRequest as _unigate_catalog_v1_ListRequest, ListRequest__Output as _unigate_catalog_v1_ListRequest__Output } from './unigate/catalog/v1/ListRequest';
import type { ModelList as _unigate_catalog_v1_ModelList, ModelList__Output as _unigate_catalog_v1_ModelList__Output } from './unigate/catalog/v1/ModelList';
import type { ResolveRequest as _unigate_catalog_v1_ResolveRequest, ResolveRequest__Output as _unigate_catalog_v1_ResolveRequest__Output } from './unigate/catalog/v1/ResolveRequest';
import type { Route as _unigate_catalog_v1_Route, Route__Output as _unigate_catalog_v1_Route__Output } from './unigate/catalog/v1/Route';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  unigate: {
    catalog: {
      v1: {
        CatalogService: SubtypeConstructor<typeof grpc.Client, _unigate_catalog_v1_CatalogServiceClient> & { service: _unigate_catalog_v1_CatalogServiceDefinition }
        CatalogSnapshot: MessageTypeDefinition<_unigate_catalog_v1_CatalogSnapshot, _unigate_catalog_v1_CatalogSnapshot__Output>
        ListRequest: MessageTypeDefinition<_unigate_catalog_v1_ListRequest, _unigate_catalog_v1_ListRequest__Output>
        ModelList: MessageTypeDefinition<_unigate_catalog_v1_ModelList, _unigate_catalog_v1_ModelList__Output>
        ResolveRequest: MessageTypeDefinition<_unigate_catalog_v1_ResolveRequest, _unigate_catalog_v1_ResolveRequest__Output>
        Route: MessageTypeDefinition<_unigate_catalog_v1_Route, _unigate_catalog_v1_Route__Output>
      }
    }
  }
}

