import type {
  AnthropicCountTokensResponse,
  AnthropicMessage,
  AnthropicStreamEvent,
  ChatCall,
  ChatCompletionChunk,
  ChatCompletionResponse,
  ChatPort,
  CountTokensCall,
  MessagesCall,
  MessagesPort,
} from '@unigate/contracts';
import type { ChatCall as ChatCallMsg, ChatChunk__Output, ChatCompletion__Output } from '@unigate/proto';
import { grpcStub, serverStream, unary, type GrpcStub } from './grpc-client';

/** Calls to the chat service: one JSON body in, one JSON answer or a stream of JSON items out. */
abstract class GrpcChatServiceClient {
  private readonly stub: GrpcStub;

  constructor(url: string) {
    this.stub = grpcStub('chat', url);
  }

  protected async unaryJson<T>(method: string, call: Envelope): Promise<T> {
    const reply = await unary<ChatCompletion__Output>(this.stub, method, encode(call));
    return JSON.parse(reply.json) as T;
  }

  protected async *streamJson<T>(method: string, call: Envelope, signal: AbortSignal): AsyncIterable<T> {
    for await (const item of serverStream<ChatChunk__Output>(this.stub, method, encode(call), signal)) {
      yield JSON.parse(item.json) as T;
    }
  }
}

/** Chat completions over gRPC. */
export class GrpcChatClient extends GrpcChatServiceClient implements ChatPort {
  complete(call: ChatCall): Promise<ChatCompletionResponse> {
    return this.unaryJson('Complete', call);
  }

  stream(call: ChatCall, signal: AbortSignal): AsyncIterable<ChatCompletionChunk> {
    return this.streamJson('Stream', call, signal);
  }
}

/** The messages format over gRPC (same service, its own methods). */
export class GrpcMessagesClient extends GrpcChatServiceClient implements MessagesPort {
  create(call: MessagesCall): Promise<AnthropicMessage> {
    return this.unaryJson('Messages', call);
  }

  stream(call: MessagesCall, signal: AbortSignal): AsyncIterable<AnthropicStreamEvent> {
    return this.streamJson('MessagesStream', call, signal);
  }

  countTokens(call: CountTokensCall): Promise<AnthropicCountTokensResponse> {
    return this.unaryJson('CountTokens', { ...call, account_id: '', key_id: '', hold_id: null });
  }
}

type Envelope = Omit<ChatCall, 'body'> & { body: unknown; betas?: string[] };

function encode(call: Envelope): ChatCallMsg {
  return {
    request_id: call.request_id,
    account_id: call.account_id,
    key_id: call.key_id,
    hold_id: call.hold_id ?? '',
    route_json: JSON.stringify(call.route),
    body_json: JSON.stringify(call.body),
    traceparent: call.traceparent ?? '',
    betas: call.betas ?? [],
  };
}
