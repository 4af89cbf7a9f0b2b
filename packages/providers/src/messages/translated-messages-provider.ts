/**
 * Messages format on a chat-completions upstream: the request is translated once, the answer (or
 * stream) is translated back with the exact event sequence a messages client expects.
 */
import {
  countPromptTokens,
  type AnthropicCountTokensRequest,
  type AnthropicMessagesRequest,
  type Channel,
} from '@unigate/contracts';
import {
  anthropicToChatRequest,
  chatChunksToAnthropicEvents,
  chatToAnthropicResponse,
} from '../translate/openai-chat__anthropic-messages';
import type { ChatProvider } from '../types';
import type { MessagesProvider } from './messages-provider';

export class TranslatedMessagesProvider implements MessagesProvider {
  constructor(private readonly chat: ChatProvider) {}

  async create(channel: Channel, req: AnthropicMessagesRequest, signal?: AbortSignal) {
    const res = await this.chat.complete(channel, { ...anthropicToChatRequest(req), stream: false }, signal);
    return chatToAnthropicResponse(res, { model: req.model });
  }

  stream(channel: Channel, req: AnthropicMessagesRequest, signal: AbortSignal) {
    const chatReq = { ...anthropicToChatRequest(req), stream: true, stream_options: { include_usage: true } };
    // message_start must carry input tokens before the upstream has counted them: estimate them here;
    // the upstream's real numbers follow in message_delta.
    return chatChunksToAnthropicEvents(this.chat.stream(channel, chatReq, signal), {
      model: req.model,
      inputTokens: countPromptTokens(chatReq.messages),
    });
  }

  async countTokens(_channel: Channel, req: AnthropicCountTokensRequest) {
    // Chat-completions upstreams have no counting endpoint: the gateway's own estimate, the same one
    // the simulator uses and billing holds against.
    return { input_tokens: countPromptTokens(anthropicToChatRequest(req).messages) };
  }
}
