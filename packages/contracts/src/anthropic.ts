/**
 * POST /v1/messages and /v1/messages/count_tokens — Anthropic's Messages API as a public surface
 * (reference/anthropic.md): the request schema our endpoint validates clients with, and the response,
 * usage and stream-event shapes, whose schemas also check what an Anthropic upstream sends.
 *
 * Objects are loose: fields we do not model (citations, container, service_tier, context_management,
 * output_config, defer_loading...) pass through untouched, so a native pass-through loses nothing and a
 * newer client (Claude Code) is not refused for fields it adds. Only what Anthropic itself would
 * refuse is a 400. Block types are a closed list — the ones we translate plus the server-tool blocks
 * we only pass through — so code can switch on `type`.
 */
import { z } from 'zod';
import { MAX_MESSAGES } from './limits';
import { requestBodyError } from './validation';

const count = z.number().int().nonnegative();

const positiveInt = (field: string) =>
  z
    .number({ error: `${field} must be a positive integer` })
    .int(`${field} must be a positive integer`)
    .positive(`${field} must be a positive integer`);

const range = (min: number, max: number, field: string) =>
  z
    .number({ error: `${field} must be a number` })
    .min(min, `${field} must be between ${min} and ${max}`)
    .max(max, `${field} must be between ${min} and ${max}`);

/** Passed through to the upstream as given; `ttl` is `5m` (default) or `1h`. */
export const anthropicCacheControlSchema = z.looseObject({ type: z.literal('ephemeral'), ttl: z.enum(['5m', '1h']).optional() });
const cacheControl = anthropicCacheControlSchema.nullish();

export const anthropicTextBlockSchema = z.looseObject({ type: z.literal('text'), text: z.string(), cache_control: cacheControl });

const imageSource = z.discriminatedUnion(
  'type',
  [
    z.looseObject({
      type: z.literal('base64'),
      media_type: z.enum(['image/jpeg', 'image/png', 'image/gif', 'image/webp'], {
        error: 'media_type must be one of: image/jpeg, image/png, image/gif, image/webp',
      }),
      data: z.string().min(1, 'data must not be empty'),
    }),
    z.looseObject({ type: z.literal('url'), url: z.string().min(1, 'url must not be empty') }),
    z.looseObject({ type: z.literal('file'), file_id: z.string().min(1) }),
  ],
  { error: (iss) => (iss.code === 'invalid_union' ? 'source type must be one of: base64, url, file' : undefined) },
);

export const anthropicImageBlockSchema = z.looseObject({ type: z.literal('image'), source: imageSource, cache_control: cacheControl });

const documentSource = z.discriminatedUnion(
  'type',
  [
    z.looseObject({ type: z.literal('base64'), media_type: z.literal('application/pdf'), data: z.string().min(1) }),
    z.looseObject({ type: z.literal('text'), media_type: z.literal('text/plain'), data: z.string() }),
    z.looseObject({ type: z.literal('url'), url: z.string().min(1) }),
    z.looseObject({
      type: z.literal('content'),
      content: z.union([z.string(), z.array(z.union([anthropicTextBlockSchema, anthropicImageBlockSchema]))]),
    }),
    z.looseObject({ type: z.literal('file'), file_id: z.string().min(1) }),
  ],
  { error: (iss) => (iss.code === 'invalid_union' ? 'source type must be one of: base64, text, url, content, file' : undefined) },
);

export const anthropicDocumentBlockSchema = z.looseObject({
  type: z.literal('document'),
  source: documentSource,
  title: z.string().nullish(),
  context: z.string().nullish(),
  cache_control: cacheControl,
});

export const anthropicToolUseBlockSchema = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string().min(1, 'id must not be empty'),
  name: z.string().min(1, 'name must not be empty'),
  input: z.record(z.string(), z.unknown(), { error: 'input must be an object' }),
  cache_control: cacheControl,
});

export const anthropicThinkingBlockSchema = z.looseObject({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() });
export const anthropicRedactedThinkingBlockSchema = z.looseObject({ type: z.literal('redacted_thinking'), data: z.string() });

/**
 * Server-tool and retrieval blocks: valid in a conversation, passed through to an Anthropic upstream,
 * not translated to other formats.
 */
export const ANTHROPIC_PASSTHROUGH_BLOCK_TYPES = [
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'tool_search_tool_result',
  'advisor_tool_result',
  'mcp_tool_use',
  'mcp_tool_result',
  'mcp_tool_listing',
  'container_upload',
  'search_result',
  'tool_reference',
  'tool_addition',
  'tool_removal',
  'compaction',
  'fallback',
] as const;
const passthroughBlock = z.looseObject({ type: z.enum(ANTHROPIC_PASSTHROUGH_BLOCK_TYPES) });

const toolResultContentBlock = z.discriminatedUnion(
  'type',
  [anthropicTextBlockSchema, anthropicImageBlockSchema, anthropicDocumentBlockSchema, passthroughBlock],
  {
    error: (iss) =>
      iss.code === 'invalid_union' ? 'tool_result content block type must be one of: text, image, document, search_result' : undefined,
  },
);

export const anthropicToolResultBlockSchema = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string().min(1, 'tool_use_id must not be empty'),
  content: z.union([z.string(), z.array(toolResultContentBlock)]).optional(),
  is_error: z.boolean().optional(),
  cache_control: cacheControl,
});

const BLOCK_TYPES = [
  'text',
  'image',
  'document',
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
  ...ANTHROPIC_PASSTHROUGH_BLOCK_TYPES,
];

export const anthropicContentBlockSchema = z.discriminatedUnion(
  'type',
  [
    anthropicTextBlockSchema,
    anthropicImageBlockSchema,
    anthropicDocumentBlockSchema,
    anthropicToolUseBlockSchema,
    anthropicToolResultBlockSchema,
    anthropicThinkingBlockSchema,
    anthropicRedactedThinkingBlockSchema,
    passthroughBlock,
  ],
  { error: (iss) => (iss.code === 'invalid_union' ? `content block type must be one of: ${BLOCK_TYPES.join(', ')}` : undefined) },
);

/**
 * A conversation turn. `system` turns carry instructions that arrive mid-conversation (Claude Code
 * sends its environment this way); other formats get them as their own instruction in place.
 */
export const anthropicMessageParamSchema = z.looseObject({
  role: z.enum(['user', 'assistant', 'system'], { error: 'role must be one of: user, assistant, system' }),
  content: z.union([z.string(), z.array(anthropicContentBlockSchema)], { error: 'content must be a string or an array of content blocks' }),
});

const jsonSchemaObject = z.looseObject({ type: z.literal('object', { error: "input_schema.type must be 'object'" }) });

/** A client tool; server tools (`{type: 'web_search_20250305', name, ...}`) pass through. */
export const anthropicToolSchema = z.union([
  z.looseObject({
    type: z.literal('custom').optional(),
    name: z.string({ error: 'name is required' }).min(1, 'name must not be empty').max(128, 'name must be at most 128 characters'),
    description: z.string().optional(),
    input_schema: jsonSchemaObject,
    cache_control: cacheControl,
  }),
  z.looseObject({ type: z.string().refine((t) => t !== 'custom', 'a custom tool needs input_schema'), name: z.string().min(1) }),
]);

export const anthropicToolChoiceSchema = z.discriminatedUnion(
  'type',
  [
    z.looseObject({ type: z.literal('auto'), disable_parallel_tool_use: z.boolean().optional() }),
    z.looseObject({ type: z.literal('any'), disable_parallel_tool_use: z.boolean().optional() }),
    z.looseObject({
      type: z.literal('tool'),
      name: z.string().min(1, 'name must not be empty'),
      disable_parallel_tool_use: z.boolean().optional(),
    }),
    z.looseObject({ type: z.literal('none') }),
  ],
  { error: (iss) => (iss.code === 'invalid_union' ? 'tool_choice type must be one of: auto, any, tool, none' : undefined) },
);

export const anthropicThinkingSchema = z.discriminatedUnion(
  'type',
  [
    z.looseObject({
      type: z.literal('enabled'),
      budget_tokens: z
        .number({ error: 'budget_tokens must be an integer of at least 1024' })
        .int('budget_tokens must be an integer of at least 1024')
        .min(1024, 'budget_tokens must be an integer of at least 1024'),
    }),
    z.looseObject({ type: z.literal('disabled') }),
    // The model decides how much to think; `display` (summarized, omitted) only shapes what it shows.
    z.looseObject({ type: z.literal('adaptive'), display: z.string().optional() }),
  ],
  { error: (iss) => (iss.code === 'invalid_union' ? 'thinking type must be one of: enabled, disabled, adaptive' : undefined) },
);

const promptFields = {
  model: z.string({ error: 'model is required' }).min(1, 'model is required'),
  messages: z
    .array(anthropicMessageParamSchema, { error: 'messages must be an array of message objects' })
    .min(1, 'messages must not be empty')
    .max(MAX_MESSAGES, `messages must hold at most ${MAX_MESSAGES} messages`),
  system: z
    .union([z.string(), z.array(anthropicTextBlockSchema)], { error: 'system must be a string or an array of text blocks' })
    .optional(),
  tools: z.array(anthropicToolSchema, { error: 'tools must be an array' }).optional(),
  tool_choice: anthropicToolChoiceSchema.optional(),
  thinking: anthropicThinkingSchema.optional(),
};

/** Output settings: `effort` (how hard the model works) and `format` (structured output). */
export const anthropicOutputConfigSchema = z.looseObject({
  effort: z.string({ error: 'effort must be a string' }).nullish(),
  format: z.looseObject({ type: z.string(), schema: z.record(z.string(), z.unknown()).optional() }).nullish(),
});

export const anthropicMessagesRequestSchema = z
  .looseObject(
    {
      ...promptFields,
      max_tokens: positiveInt('max_tokens'),
      stop_sequences: z.array(z.string(), { error: 'stop_sequences must be an array of strings' }).optional(),
      temperature: range(0, 1, 'temperature').optional(),
      top_p: range(0, 1, 'top_p').optional(),
      top_k: z
        .number({ error: 'top_k must be a non-negative integer' })
        .int('top_k must be a non-negative integer')
        .nonnegative('top_k must be a non-negative integer')
        .optional(),
      metadata: z.record(z.string(), z.unknown(), { error: 'metadata must be an object' }).optional(),
      stream: z.boolean({ error: 'stream must be a boolean' }).optional(),
      service_tier: z.string().optional(),
      output_config: anthropicOutputConfigSchema.optional(),
    },
    { error: requestBodyError },
  )
  .superRefine((r, ctx) => {
    if (r.thinking?.type === 'enabled' && r.thinking.budget_tokens >= r.max_tokens) {
      ctx.addIssue({ code: 'custom', path: ['thinking', 'budget_tokens'], message: 'budget_tokens must be less than max_tokens' });
    }
  });

/** The messages body without `max_tokens`/`stream` (reference/anthropic.md). */
export const anthropicCountTokensRequestSchema = z.looseObject(promptFields, { error: requestBodyError });

export type AnthropicMessagesRequest = z.infer<typeof anthropicMessagesRequestSchema>;
export type AnthropicCountTokensRequest = z.infer<typeof anthropicCountTokensRequestSchema>;
export type AnthropicMessageParam = z.infer<typeof anthropicMessageParamSchema>;
export type AnthropicContentBlock = z.infer<typeof anthropicContentBlockSchema>;
export type AnthropicTextBlock = z.infer<typeof anthropicTextBlockSchema>;
export type AnthropicImageBlock = z.infer<typeof anthropicImageBlockSchema>;
export type AnthropicToolResultBlock = z.infer<typeof anthropicToolResultBlockSchema>;
export type AnthropicTool = z.infer<typeof anthropicToolSchema>;
export type AnthropicToolChoice = z.infer<typeof anthropicToolChoiceSchema>;
export type AnthropicThinkingConfig = z.infer<typeof anthropicThinkingSchema>;
export type AnthropicOutputConfig = z.infer<typeof anthropicOutputConfigSchema>;

export interface AnthropicCountTokensResponse {
  input_tokens: number;
}
export const anthropicCountTokensResponseSchema = z.looseObject({ input_tokens: count });

// ---- Responses ------------------------------------------------------------------------------------

/** `model_context_window_exceeded` and `pause_turn` appear with newer models; unknown values pass. */
export type AnthropicStopReason =
  'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'pause_turn' | 'refusal' | 'model_context_window_exceeded';

/** Anthropic reports these as null when they do not apply; we always send numbers. */
export const anthropicUsageSchema = z.looseObject({
  input_tokens: count,
  output_tokens: count,
  cache_creation_input_tokens: count.nullish(),
  /** cache_creation_input_tokens by the ttl of the breakpoint that wrote them (one-hour writes cost more). */
  cache_creation: z.looseObject({ ephemeral_5m_input_tokens: count.nullish(), ephemeral_1h_input_tokens: count.nullish() }).nullish(),
  cache_read_input_tokens: count.nullish(),
  output_tokens_details: z.looseObject({ thinking_tokens: count.nullish() }).nullish(),
});
export type AnthropicUsage = z.infer<typeof anthropicUsageSchema>;

export const anthropicResponseBlockSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text'), text: z.string() }),
  // A streamed thinking block may start without its signature; it arrives as a signature_delta.
  z.looseObject({ type: z.literal('thinking'), thinking: z.string(), signature: z.string().optional() }),
  anthropicRedactedThinkingBlockSchema,
  z.looseObject({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() }),
  passthroughBlock,
]);
export type AnthropicResponseBlock = z.infer<typeof anthropicResponseBlockSchema>;

export const anthropicMessageSchema = z.looseObject({
  id: z.string(),
  type: z.literal('message'),
  role: z.literal('assistant'),
  model: z.string(),
  content: z.array(anthropicResponseBlockSchema),
  stop_reason: z.string().nullable(),
  stop_sequence: z.string().nullish(),
  usage: anthropicUsageSchema,
});
export type AnthropicMessage = z.infer<typeof anthropicMessageSchema>;

// ---- Stream events (SSE `event:` name = the JSON `type`) -------------------------------------------

export const anthropicDeltaSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text_delta'), text: z.string() }),
  z.looseObject({ type: z.literal('input_json_delta'), partial_json: z.string() }),
  z.looseObject({ type: z.literal('thinking_delta'), thinking: z.string() }),
  z.looseObject({ type: z.literal('signature_delta'), signature: z.string() }),
  z.looseObject({ type: z.literal('citations_delta') }),
]);
export type AnthropicDelta = z.infer<typeof anthropicDeltaSchema>;

export const anthropicErrorObjectSchema = z.looseObject({ type: z.string(), message: z.string() });

/** message_delta usage is cumulative; only output_tokens is always present. */
const deltaUsage = anthropicUsageSchema.extend({ input_tokens: count.nullish() });

export const anthropicStreamEventSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('message_start'), message: anthropicMessageSchema }),
  z.looseObject({ type: z.literal('content_block_start'), index: count, content_block: anthropicResponseBlockSchema }),
  z.looseObject({ type: z.literal('content_block_delta'), index: count, delta: anthropicDeltaSchema }),
  z.looseObject({ type: z.literal('content_block_stop'), index: count }),
  z.looseObject({
    type: z.literal('message_delta'),
    delta: z.looseObject({ stop_reason: z.string().nullish(), stop_sequence: z.string().nullish() }),
    usage: deltaUsage,
  }),
  z.looseObject({ type: z.literal('message_stop') }),
  z.looseObject({ type: z.literal('ping') }),
  z.looseObject({ type: z.literal('error'), error: anthropicErrorObjectSchema }),
]);
export type AnthropicStreamEvent = z.infer<typeof anthropicStreamEventSchema>;
export type AnthropicStreamEventType = AnthropicStreamEvent['type'];

/** `{type:'error', error:{type, message}, request_id?}` — Anthropic's error body. */
export const anthropicErrorBodySchema = z.looseObject({ type: z.literal('error'), error: anthropicErrorObjectSchema });
