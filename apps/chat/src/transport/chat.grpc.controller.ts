import { Controller, Inject } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import { type ChatCall, type ChatPort } from '@unigate/contracts';
import { toRpcException } from '@unigate/platform';
import type { ChatCall__Output, ChatChunk__Output, ChatCompletion__Output } from '@unigate/proto';
import { Observable } from 'rxjs';
import { CHAT_SERVICE } from '../tokens';

/** gRPC face of the chat service: unary Complete and a server stream of chunks. */
@Controller()
export class ChatGrpcController {
  constructor(@Inject(CHAT_SERVICE) private readonly chat: ChatPort) {}

  @GrpcMethod('ChatService', 'Complete')
  async complete(msg: ChatCall__Output): Promise<ChatCompletion__Output> {
    try {
      return { json: JSON.stringify(await this.chat.complete(decodeCall(msg))) };
    } catch (err) {
      throw toRpcException(err);
    }
  }

  @GrpcMethod('ChatService', 'Stream')
  stream(msg: ChatCall__Output): Observable<ChatChunk__Output> {
    return new Observable<ChatChunk__Output>((subscriber) => {
      // Unsubscribe happens when the edge cancels the call (its client went away): abort upstream.
      const abort = new AbortController();
      void (async () => {
        try {
          for await (const chunk of this.chat.stream(decodeCall(msg), abort.signal)) {
            if (subscriber.closed) break;
            subscriber.next({ json: JSON.stringify(chunk) });
          }
          subscriber.complete();
        } catch (err) {
          if (!subscriber.closed) subscriber.error(toRpcException(err));
        }
      })();
      return () => abort.abort();
    });
  }
}

export function decodeCall(msg: ChatCall__Output): ChatCall {
  return {
    request_id: msg.request_id,
    account_id: msg.account_id,
    key_id: msg.key_id,
    hold_id: msg.hold_id || null,
    route: JSON.parse(msg.route_json),
    body: JSON.parse(msg.body_json),
    traceparent: msg.traceparent || undefined,
  };
}
