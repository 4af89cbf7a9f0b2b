/**
 * chat-completions ⇄ Anthropic messages, both directions, for requests, responses and streams.
 * File names say the direction: `<from>-to-<to>.<what>.ts`.
 */
export {
  chatToAnthropicRequest,
  DEFAULT_ANTHROPIC_MAX_TOKENS,
  JSON_RESPONSE_TOOL,
  type AnthropicRequestTranslation,
  type ChatToAnthropicOptions,
} from './openai-chat-to-anthropic-messages.request';
export { anthropicToChatResponse, type AnthropicToChatResponseOptions } from './anthropic-messages-to-openai-chat.response';
export {
  AnthropicToChatStream,
  anthropicEventsToChatChunks,
  type AnthropicToChatStreamOptions,
} from './anthropic-messages-to-openai-chat.stream';
export { anthropicToChatRequest, type AnthropicToChatRequestOptions } from './anthropic-messages-to-openai-chat.request';
export { chatToAnthropicResponse, parseToolInput, type ChatToAnthropicResponseOptions } from './openai-chat-to-anthropic-messages.response';
export {
  ChatToAnthropicStream,
  chatChunksToAnthropicEvents,
  type ChatToAnthropicStreamOptions,
} from './openai-chat-to-anthropic-messages.stream';
export { anthropicStopToFinishReason, finishReasonToAnthropicStop } from './openai-chat__anthropic-messages.stop-reason';
export { anthropicToChatUsage, chatToAnthropicUsage } from './openai-chat__anthropic-messages.usage';
