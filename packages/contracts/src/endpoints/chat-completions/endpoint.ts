/** POST /v1/chat/completions (SPEC.md §2.1, §2.2). */
import {
  chatCompletionChunkSchema,
  chatCompletionRequestSchema,
  chatCompletionResponseSchema,
  type ChatCompletionChunk,
  type ChatCompletionRequest,
  type ChatCompletionResponse,
} from '../../chat';
import { renderShapeB } from '../../errors';
import { fixedShape, type EndpointSpec } from '../endpoint-spec';
import { planChatCompletion } from './chat-plan';

export const chatCompletionsSpec: EndpointSpec<ChatCompletionRequest, ChatCompletionResponse, ChatCompletionChunk> = {
  name: 'chat.completions',
  path: '/v1/chat/completions',
  summary: 'Chat completion in the OpenAI Chat Completions format, on any chat model.',
  example: { model: 'sigma-sonnet-4-6', messages: [{ role: 'user', content: 'Hello' }], max_tokens: 16 },
  service: 'chat',
  request: chatCompletionRequestSchema,
  response: chatCompletionResponseSchema,
  event: chatCompletionChunkSchema,
  kinds: ['chat'],
  units: ['input_tokens', 'cached_input_tokens', 'cache_write_input_tokens', 'cache_write_1h_input_tokens', 'output_tokens'],
  errorShape: fixedShape('B'),
  modelOf: (req) => req.model,
  isStream: (req) => req.stream === true,
  plan: (model, req) => ({ worstCase: planChatCompletion(model, req) }),
  sse: {
    terminator: '[DONE]',
    error: (err) => ({ data: renderShapeB(err) }),
  },
};
