import { Controller, Inject } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import type { ChatCall, ChatPort, CountTokensCall, MessagesCall, MessagesPort } from '@unigate/contracts';
import { toRpcException } from '@unigate/platform';
import type { ChatCall__Output, ChatChunk__Output, ChatCompletion__Output } from '@unigate/proto';
import { Observable } from 'rxjs';
import { CHAT_SERVICE, MESSAGES_SERVICE } from '../tokens';

/** gRPC face of the chat service: chat completions and the messages format, unary and streamed. */
@Controller()
export class ChatGrpcController {
  constructor(
    @Inject(CHAT_SERVICE) private readonly chat: ChatPort,
    @Inject(MESSAGES_SERVICE) private readonly messages: MessagesPort,
  ) {}

  @GrpcMethod('ChatService', 'Complete')
  complete(msg: ChatCall__Output): Promise<ChatCompletion__Output> {
    return unary(() => this.chat.complete(decodeCall(msg)));
  }

  @GrpcMethod('ChatService', 'Stream')
  stream(msg: ChatCall__Output): Observable<ChatChunk__Output> {
    return serverStream((signal) => this.chat.stream(decodeCall(msg), signal));
  }

  @GrpcMethod('ChatService', 'Messages')
  createMessage(msg: ChatCall__Output): Promise<ChatCompletion__Output> {
    return unary(() => this.messages.create(decodeCall(msg) as MessagesCall));
  }

  @GrpcMethod('ChatService', 'MessagesStream')
  streamMessage(msg: ChatCall__Output): Observable<ChatChunk__Output> {
    return serverStream((signal) => this.messages.stream(decodeCall(msg) as MessagesCall, signal));
  }

  @GrpcMethod('ChatService', 'CountTokens')
  countTokens(msg: ChatCall__Output): Promise<ChatCompletion__Output> {
    return unary(() => this.messages.countTokens(decodeCall(msg) as CountTokensCall));
  }
}

async function unary(run: () => Promise<unknown>): Promise<ChatCompletion__Output> {
  try {
    return { json: JSON.stringify(await run()) };
  } catch (err) {
    throw toRpcException(err);
  }
}

/** An async iterable as a gRPC server stream; the edge cancelling the call aborts the upstream. */
function serverStream(open: (signal: AbortSignal) => AsyncIterable<unknown>): Observable<ChatChunk__Output> {
  return new Observable<ChatChunk__Output>((subscriber) => {
    const abort = new AbortController();
    void (async () => {
      try {
        for await (const item of open(abort.signal)) {
          if (subscriber.closed) break;
          subscriber.next({ json: JSON.stringify(item) });
        }
        subscriber.complete();
      } catch (err) {
        if (!subscriber.closed) subscriber.error(toRpcException(err));
      }
    })();
    return () => abort.abort();
  });
}

/** The envelope is the same for every call kind; the body is whichever format the method serves. */
export function decodeCall(msg: ChatCall__Output): ChatCall & { betas?: string[] } {
  return {
    request_id: msg.request_id,
    account_id: msg.account_id,
    key_id: msg.key_id,
    hold_id: msg.hold_id || null,
    route: JSON.parse(msg.route_json),
    body: JSON.parse(msg.body_json),
    traceparent: msg.traceparent || undefined,
    betas: msg.betas?.length ? msg.betas : undefined,
  };
}
