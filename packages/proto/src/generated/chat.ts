import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { ChatCall as _unigate_chat_v1_ChatCall, ChatCall__Output as _unigate_chat_v1_ChatCall__Output } from './unigate/chat/v1/ChatCall';
import type { ChatChunk as _unigate_chat_v1_ChatChunk, ChatChunk__Output as _unigate_chat_v1_ChatChunk__Output } from './unigate/chat/v1/ChatChunk';
import type { ChatCompletion as _unigate_chat_v1_ChatCompletion, ChatCompletion__Output as _unigate_chat_v1_ChatCompletion__Output } from './unigate/chat/v1/ChatCompletion';
import type { ChatServiceClient as _unigate_chat_v1_ChatServiceClient, ChatServiceDefinition as _unigate_chat_v1_ChatServiceDefinition } from './unigate/chat/v1/ChatService';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  unigate: {
    chat: {
      v1: {
        ChatCall: MessageTypeDefinition<_unigate_chat_v1_ChatCall, _unigate_chat_v1_ChatCall__Output>
        ChatChunk: MessageTypeDefinition<_unigate_chat_v1_ChatChunk, _unigate_chat_v1_ChatChunk__Output>
        ChatCompletion: MessageTypeDefinition<_unigate_chat_v1_ChatCompletion, _unigate_chat_v1_ChatCompletion__Output>
        ChatService: SubtypeConstructor<typeof grpc.Client, _unigate_chat_v1_ChatServiceClient> & { service: _unigate_chat_v1_ChatServiceDefinition }
      }
    }
  }
}

