import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Deleted as _unigate_responses_v1_Deleted, Deleted__Output as _unigate_responses_v1_Deleted__Output } from './unigate/responses/v1/Deleted';
import type { InputItems as _unigate_responses_v1_InputItems, InputItems__Output as _unigate_responses_v1_InputItems__Output } from './unigate/responses/v1/InputItems';
import type { InputItemsRequest as _unigate_responses_v1_InputItemsRequest, InputItemsRequest__Output as _unigate_responses_v1_InputItemsRequest__Output } from './unigate/responses/v1/InputItemsRequest';
import type { ResponseRef as _unigate_responses_v1_ResponseRef, ResponseRef__Output as _unigate_responses_v1_ResponseRef__Output } from './unigate/responses/v1/ResponseRef';
import type { ResponsesServiceClient as _unigate_responses_v1_ResponsesServiceClient, ResponsesServiceDefinition as _unigate_responses_v1_ResponsesServiceDefinition } from './unigate/responses/v1/ResponsesService';
import type { StoredResponse as _unigate_responses_v1_StoredResponse, StoredResponse__Output as _unigate_responses_v1_StoredResponse__Output } from './unigate/responses/v1/StoredResponse';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  unigate: {
    responses: {
      v1: {
        Deleted: MessageTypeDefinition<_unigate_responses_v1_Deleted, _unigate_responses_v1_Deleted__Output>
        InputItems: MessageTypeDefinition<_unigate_responses_v1_InputItems, _unigate_responses_v1_InputItems__Output>
        InputItemsRequest: MessageTypeDefinition<_unigate_responses_v1_InputItemsRequest, _unigate_responses_v1_InputItemsRequest__Output>
        ResponseRef: MessageTypeDefinition<_unigate_responses_v1_ResponseRef, _unigate_responses_v1_ResponseRef__Output>
        ResponsesService: SubtypeConstructor<typeof grpc.Client, _unigate_responses_v1_ResponsesServiceClient> & { service: _unigate_responses_v1_ResponsesServiceDefinition }
        StoredResponse: MessageTypeDefinition<_unigate_responses_v1_StoredResponse, _unigate_responses_v1_StoredResponse__Output>
      }
    }
  }
}

