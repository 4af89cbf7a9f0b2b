/**
 * chat-completions ⇄ the Responses API, for requests, answers and streams, both ways: a Responses
 * client on a model served over chat completions, Anthropic messages or Gemini, and a chat client
 * on a model served over the Responses API. File names say the direction.
 */
export {
  responsesToChatRequest,
  type ChatRequestTranslation,
  type ResponsesToChatOptions,
} from './openai-responses-to-openai-chat.request';
export { chatToResponsesResponse } from './openai-chat-to-openai-responses.response';
export { ChatToResponsesStream, chatChunksToResponsesEvents } from './openai-chat-to-openai-responses.stream';
export { responsesUsage, type ResponseContext } from './openai-chat-to-openai-responses.output';
export { ToolNames, toolNamesOf, customInput, chatToolName, type ToolTarget } from './openai-chat__openai-responses.tools';
export { chatToResponsesRequest } from './openai-chat-to-openai-responses.request';
export { responsesToChatResponse } from './openai-responses-to-openai-chat.response';
export { ResponsesToChatStream, responsesEventsToChatChunks } from './openai-responses-to-openai-chat.stream';
