import type { ChatCall, ChatCompletionChunk, ChatCompletionResponse, ChatPort } from '@unigate/contracts';
import type { ChatCall as ChatCallMsg, ChatChunk__Output, ChatCompletion__Output } from '@unigate/proto';
import { grpcStub, serverStream, unary, type GrpcStub } from './grpc-client';

export class GrpcChatClient implements ChatPort {
  private readonly stub: GrpcStub;

  constructor(url: string) {
    this.stub = grpcStub('chat', url);
  }

  async complete(call: ChatCall): Promise<ChatCompletionResponse> {
    const reply = await unary<ChatCompletion__Output>(this.stub, 'Complete', encode(call));
    return JSON.parse(reply.json) as ChatCompletionResponse;
  }

  async *stream(call: ChatCall, signal: AbortSignal): AsyncIterable<ChatCompletionChunk> {
    for await (const chunk of serverStream<ChatChunk__Output>(this.stub, 'Stream', encode(call), signal)) {
      yield JSON.parse(chunk.json) as ChatCompletionChunk;
    }
  }
}

function encode(call: ChatCall): ChatCallMsg {
  return {
    request_id: call.request_id,
    account_id: call.account_id,
    key_id: call.key_id,
    hold_id: call.hold_id ?? '',
    route_json: JSON.stringify(call.route),
    body_json: JSON.stringify(call.body),
    traceparent: call.traceparent ?? '',
  };
}
