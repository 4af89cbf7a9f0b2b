/**
 * Stored Responses read back, deleted and their input items listed over gRPC (responses.proto): the
 * chat service's handler and the edge's client. Each side checks the JSON it receives against the
 * contracts schema.
 */
import {
  inputItemListSchema,
  inputItemsQuerySchema,
  responsesResponseSchema,
  type InputItemList,
  type InputItemsQuery,
  type ResponsesResponse,
  type StoredResponsePort,
} from '@unigate/contracts';
import type {
  InputItemsRequest__Output,
  InputItems__Output,
  ResponseRef__Output,
  ResponsesServiceHandlers,
  StoredResponse__Output,
} from '@unigate/proto';
import { CONTROL_CALL, grpcClient, unary } from './grpc-client';
import { unaryHandler } from './grpc-server';
import { decodeJson, encodeJson } from './wire-json';

export function storedResponseHandlers(port: StoredResponsePort): ResponsesServiceHandlers {
  return {
    GetResponse: unaryHandler(async (req: ResponseRef__Output) => ({ response: encodeJson(await port.retrieve(req.account_id, req.id)) })),
    DeleteResponse: unaryHandler(async (req: ResponseRef__Output) => {
      await port.remove(req.account_id, req.id);
      return {};
    }),
    ListInputItems: unaryHandler(async (req: InputItemsRequest__Output) => {
      const query = decodeJson(inputItemsQuerySchema, req.query, 'input items query', 'request');
      return { list: encodeJson(await port.inputItems(req.account_id, req.id, query)) };
    }),
  };
}

export class GrpcStoredResponseClient implements StoredResponsePort {
  private readonly client;

  constructor(url: string) {
    this.client = grpcClient('responses', url);
  }

  async retrieve(accountId: string, id: string): Promise<ResponsesResponse> {
    const reply = await unary<object, StoredResponse__Output>(
      this.client.GetResponse.bind(this.client),
      { account_id: accountId, id },
      CONTROL_CALL,
    );
    return decodeJson(responsesResponseSchema, reply.response, 'stored response', 'peer');
  }

  async inputItems(accountId: string, id: string, query: InputItemsQuery): Promise<InputItemList> {
    const reply = await unary<object, InputItems__Output>(
      this.client.ListInputItems.bind(this.client),
      { account_id: accountId, id, query: encodeJson(query) },
      CONTROL_CALL,
    );
    return decodeJson(inputItemListSchema, reply.list, 'input items', 'peer') as InputItemList;
  }

  async remove(accountId: string, id: string): Promise<void> {
    await unary<object, object>(this.client.DeleteResponse.bind(this.client), { account_id: accountId, id }, CONTROL_CALL);
  }
}
