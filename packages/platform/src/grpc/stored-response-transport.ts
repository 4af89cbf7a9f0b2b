/**
 * Stored Responses read back and deleted over gRPC (responses.proto): the chat service's handler and
 * the edge's client. The response travels as JSON checked against the contracts schema on the client side.
 */
import { responsesResponseSchema, type ResponsesResponse, type StoredResponsePort } from '@unigate/contracts';
import type { ResponseRef__Output, ResponsesServiceHandlers, StoredResponse__Output } from '@unigate/proto';
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

  async remove(accountId: string, id: string): Promise<void> {
    await unary<object, object>(this.client.DeleteResponse.bind(this.client), { account_id: accountId, id }, CONTROL_CALL);
  }
}
