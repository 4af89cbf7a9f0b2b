/**
 * POST /v1/messages and /v1/messages/count_tokens: Anthropic's Messages API as a public surface, for
 * the Anthropic SDK and Claude Code (reference/anthropic.md). `x-api-key` authenticates too, errors
 * come in Anthropic's shape, `anthropic-beta` travels to messages-native upstreams.
 */
import {
  anthropicCountTokensRequestSchema,
  anthropicCountTokensResponseSchema,
  anthropicMessageSchema,
  anthropicMessagesRequestSchema,
  anthropicStreamEventSchema,
  type AnthropicCountTokensRequest,
  type AnthropicCountTokensResponse,
  type AnthropicMessage,
  type AnthropicMessagesRequest,
  type AnthropicStreamEvent,
} from '../../anthropic';
import { renderAnthropic } from '../../errors';
import { fixedShape, type EndpointSpec, type RequestHeaders } from '../endpoint-spec';
import { planMessages } from './messages-plan';

/** `anthropic-beta` values (comma-separated, possibly repeated) as one comma-joined option. */
function betaOption(headers: RequestHeaders): Record<string, string> {
  const raw = headers['anthropic-beta'];
  const list = (Array.isArray(raw) ? raw.join(',') : (raw ?? ''))
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  return list.length ? { 'anthropic-beta': list.join(',') } : {};
}

const requestIdHeader = (requestId: string) => ({ 'request-id': requestId });

export const messagesSpec: EndpointSpec<AnthropicMessagesRequest, AnthropicMessage, AnthropicStreamEvent> = {
  name: 'messages',
  path: '/v1/messages',
  summary: 'Chat in the Anthropic Messages format, on any chat model.',
  example: { model: 'sigma-sonnet-4-6', max_tokens: 16, messages: [{ role: 'user', content: 'Hello' }] },
  service: 'chat',
  request: anthropicMessagesRequestSchema,
  response: anthropicMessageSchema,
  event: anthropicStreamEventSchema,
  kinds: ['chat'],
  units: ['input_tokens', 'cached_input_tokens', 'cache_write_input_tokens', 'cache_write_1h_input_tokens', 'output_tokens'],
  acceptsXApiKey: true,
  errorShape: fixedShape('anthropic'),
  modelOf: (req) => req.model,
  isStream: (req) => req.stream === true,
  plan: (model, req) => ({ worstCase: planMessages(model, req) }),
  sse: {
    eventName: (ev) => ev.type,
    error: (err, requestId) => ({ event: 'error', data: renderAnthropic(err, requestId) }),
  },
  options: betaOption,
  replyHeaders: requestIdHeader,
};

/** Counting is free: no hold, no usage, no limits. */
export const countTokensSpec: EndpointSpec<AnthropicCountTokensRequest, AnthropicCountTokensResponse> = {
  name: 'messages.count_tokens',
  path: '/v1/messages/count_tokens',
  summary: 'Counts the input tokens of a Messages-format request; not billed.',
  example: { model: 'sigma-sonnet-4-6', messages: [{ role: 'user', content: 'Hello' }] },
  service: 'chat',
  request: anthropicCountTokensRequestSchema,
  response: anthropicCountTokensResponseSchema,
  kinds: ['chat'],
  units: [],
  acceptsXApiKey: true,
  errorShape: fixedShape('anthropic'),
  modelOf: (req) => req.model,
  isStream: () => false,
  plan: () => ({ worstCase: null }),
  options: betaOption,
  replyHeaders: requestIdHeader,
};
