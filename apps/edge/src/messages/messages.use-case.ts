/**
 * POST /v1/messages after authentication and validation. The checks and the hold are the chat
 * path's own (the request is translated to chat-completions form only to apply them); the call then
 * travels in its native form, so sigma upstreams receive it untouched.
 */
import type {
  AnthropicCountTokensRequest,
  AnthropicCountTokensResponse,
  AnthropicMessage,
  AnthropicMessagesRequest,
  AnthropicStreamEvent,
  KeyPrincipal,
  MessagesCall,
  MessagesPort,
} from '@unigate/contracts';
import { anthropicToChatRequest } from '@unigate/providers';
import type { ChatCompletionsUseCase } from '../chat/chat-completions.use-case';

export class MessagesUseCase {
  constructor(
    private readonly chat: ChatCompletionsUseCase,
    private readonly messages: MessagesPort,
  ) {}

  async prepare(principal: KeyPrincipal, body: AnthropicMessagesRequest, requestId: string, betas: string[]): Promise<MessagesCall> {
    const call = await this.chat.prepare(principal, anthropicToChatRequest(body), requestId);
    return { ...call, body, betas };
  }

  async create(call: MessagesCall): Promise<AnthropicMessage> {
    try {
      return await this.messages.create(call);
    } catch (err) {
      await this.chat.release(call);
      throw err;
    }
  }

  async *stream(call: MessagesCall, signal: AbortSignal): AsyncIterable<AnthropicStreamEvent> {
    let ok = false;
    try {
      yield* this.messages.stream(call, signal);
      ok = true;
    } finally {
      if (!ok) await this.chat.release(call);
    }
  }

  async countTokens(principal: KeyPrincipal, body: AnthropicCountTokensRequest, requestId: string, betas: string[]): Promise<AnthropicCountTokensResponse> {
    const route = await this.chat.resolve(principal, body.model);
    return this.messages.countTokens({ request_id: requestId, route, body, betas });
  }
}
