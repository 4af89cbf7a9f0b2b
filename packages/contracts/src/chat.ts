/**
 * POST /v1/chat/completions — the request schema (SPEC.md §2.1, §2.2) and the response/chunk types
 * (reference/openai.md). Unknown top-level fields pass through to the upstream untouched.
 */
import { z } from 'zod';
import { anthropicCacheControlSchema } from './anthropic';
import { MAX_CANDIDATES, MAX_MESSAGES } from './limits';
import { dropNulls, requestBodyError } from './validation';

/**
 * A prompt-cache breakpoint on a text or image part (OpenRouter's convention) or on a whole message
 * (LiteLLM's), in Anthropic's own shape: kept for Anthropic-protocol upstreams, which cache the prompt
 * up to it, and checked here so that a malformed one is a 400 naming it rather than the upstream's.
 * The OpenAI-compatible adapter leaves both out of what it sends (openai-chat-request.ts).
 */
const partCacheControl = anthropicCacheControlSchema.nullish();
const textBlock = z.object({ type: z.literal('text'), text: z.string(), cache_control: partCacheControl });
const imageBlock = z.object({
  type: z.literal('image_url'),
  image_url: z.object({ url: z.string().min(1), detail: z.string().optional() }),
  cache_control: partCacheControl,
});

/**
 * Media blocks for the models that take video and audio input (SPEC.md §4 note; gamma chat models):
 * a video or audio file by URL (`http(s)://` or a `data:` URL), or OpenAI's base64 `input_audio`.
 * The schema accepts them for every model; the edge's model rules reject them for a model whose
 * catalogue entry lacks `chat.media_input`. Documented in docs/chat-content.md.
 */
const videoUrlBlock = z.object({ type: z.literal('video_url'), video_url: z.object({ url: z.string().min(1) }) });
const audioUrlBlock = z.object({ type: z.literal('audio_url'), audio_url: z.object({ url: z.string().min(1) }) });
/** Audio formats Gemini-class upstreams read (OpenAI itself takes wav and mp3). */
export const INPUT_AUDIO_FORMATS = ['wav', 'mp3', 'aiff', 'aac', 'ogg', 'flac'] as const;
const inputAudioBlock = z.object({
  type: z.literal('input_audio'),
  input_audio: z.object({
    data: z.string().min(1, 'input_audio.data must be base64 audio'),
    format: z.enum(INPUT_AUDIO_FORMATS, { error: `input_audio.format must be one of: ${INPUT_AUDIO_FORMATS.join(', ')}` }),
  }),
});

/** Block types only models with `chat.media_input` accept. */
export const MEDIA_BLOCK_TYPES = ['video_url', 'audio_url', 'input_audio'] as const;
export type MediaBlockType = (typeof MEDIA_BLOCK_TYPES)[number];

export const contentBlockSchema = z.discriminatedUnion('type', [textBlock, imageBlock, videoUrlBlock, audioUrlBlock, inputAudioBlock], {
  error: (iss) =>
    iss.code === 'invalid_union' ? 'content block type must be one of: text, image_url, video_url, audio_url, input_audio' : undefined,
});

const toolCallSchema = z.looseObject({
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

export const chatMessageSchema = z
  .looseObject({
    role: z.enum(['system', 'user', 'assistant', 'tool'], {
      error: 'role must be one of: system, user, assistant, tool',
    }),
    content: z.union([z.string(), z.array(contentBlockSchema), z.null()]).optional(),
    // Null as absent: an assistant message echoed from an answer often carries "tool_calls": null.
    name: z.string().nullish(),
    tool_call_id: z.string().min(1).optional(),
    tool_calls: z.array(toolCallSchema).nullish(),
    cache_control: partCacheControl,
  })
  .superRefine((m, ctx) => {
    const hasToolCalls = m.role === 'assistant' && (m.tool_calls?.length ?? 0) > 0;
    if ((m.content === undefined || m.content === null) && !hasToolCalls) {
      ctx.addIssue({ code: 'custom', path: ['content'], message: 'content is required (a string or an array of blocks)' });
    }
    if (m.role === 'tool' && !m.tool_call_id) {
      ctx.addIssue({ code: 'custom', path: ['tool_call_id'], message: 'tool_call_id is required for messages with role tool' });
    }
  })
  .transform(dropNulls(['name', 'tool_calls']));

const functionToolSchema = z.looseObject({
  type: z.literal('function'),
  function: z.looseObject({
    name: z.string().min(1),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
  }),
});

/** A named function. Without `function`, the 400 says it is needed and what it holds: the function's name. */
const namedFunctionChoiceSchema = z.object({
  type: z.literal('function'),
  function: z.object(
    { name: z.string().min(1, 'tool_choice.function.name must name the function the model must call') },
    {
      error: (iss) =>
        iss.input === undefined ? 'tool_choice.function is required: {"name": ...} naming the function the model must call' : undefined,
    },
  ),
});

const toolChoiceSchema = z.union([z.enum(['auto', 'none', 'required']), namedFunctionChoiceSchema], {
  error: `tool_choice must be 'auto', 'none', 'required' or {"type": "function", "function": {"name": ...}}`,
});

const responseFormatSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({
    type: z.literal('json_schema'),
    json_schema: z.looseObject({ name: z.string().optional(), schema: z.record(z.string(), z.unknown()).optional() }),
  }),
]);

const range = (min: number, max: number, field: string) =>
  z
    .number({ error: `${field} must be a number` })
    .min(min, `${field} must be between ${min} and ${max}`)
    .max(max, `${field} must be between ${min} and ${max}`);

const positiveInt = (field: string) =>
  z
    .number({ error: `${field} must be a positive integer` })
    .int(`${field} must be a positive integer`)
    .positive(`${field} must be a positive integer`);

/** Optional fields whose null OpenAI's SDK types allow ("use the default"): parsed as absent. */
const NULL_AS_ABSENT = [
  'temperature',
  'top_p',
  'max_tokens',
  'max_completion_tokens',
  'n',
  'stream',
  'presence_penalty',
  'frequency_penalty',
  'seed',
  'reasoning_effort',
  'prompt_cache_key',
] as const;

export const chatCompletionRequestSchema = z
  .looseObject(
    {
      model: z.string({ error: 'model is required' }).min(1, 'model is required'),
      messages: z
        .array(chatMessageSchema, { error: 'messages must be an array of message objects' })
        .min(1, 'messages must not be empty')
        .max(MAX_MESSAGES, `messages must hold at most ${MAX_MESSAGES} messages`),
      temperature: range(0, 2, 'temperature').nullish(),
      top_p: range(0, 1, 'top_p').nullish(),
      max_tokens: positiveInt('max_tokens').nullish(),
      max_completion_tokens: positiveInt('max_completion_tokens').nullish(),
      n: positiveInt('n').max(MAX_CANDIDATES, `n must be at most ${MAX_CANDIDATES}`).nullish(),
      stream: z.boolean({ error: 'stream must be a boolean' }).nullish(),
      stream_options: z.object({ include_usage: z.boolean().optional() }).nullable().optional(),
      stop: z
        .union([z.string(), z.array(z.string()).max(4, 'stop may hold at most 4 sequences')], {
          error: 'stop must be a string or an array of at most 4 strings',
        })
        .nullable()
        .optional(),
      presence_penalty: range(-2, 2, 'presence_penalty').nullish(),
      frequency_penalty: range(-2, 2, 'frequency_penalty').nullish(),
      tools: z.array(functionToolSchema).optional(),
      tool_choice: toolChoiceSchema.optional(),
      response_format: responseFormatSchema.optional(),
      user: z.string().optional(),
      seed: z.number().int().nullish(),
      reasoning_effort: z.string().nullish(),
      /** OpenAI's cache routing key; on an Anthropic upstream it also asks for cache breakpoints (docs/coding-agents.md). */
      prompt_cache_key: z.string({ error: 'prompt_cache_key must be a string' }).nullish(),
    },
    { error: requestBodyError },
  )
  .transform(dropNulls(NULL_AS_ABSENT));

export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;
export type ChatMessage = z.infer<typeof chatMessageSchema>;
export type ChatContentBlock = z.infer<typeof contentBlockSchema>;

const count = z.number().int().nonnegative();

/** Token usage in OpenAI's shape; the details objects appear when the upstream reports them. */
export const chatUsageSchema = z.looseObject({
  prompt_tokens: count,
  completion_tokens: count,
  total_tokens: count,
  // cache_write_tokens: prompt tokens written to the upstream's prompt cache (OpenRouter's name for
  // Anthropic's cache_creation_input_tokens); only where the upstream reports cache writes.
  prompt_tokens_details: z
    .looseObject({ cached_tokens: count.optional(), cache_write_tokens: count.optional(), audio_tokens: count.optional() })
    .optional(),
  completion_tokens_details: z.looseObject({ reasoning_tokens: count.optional() }).optional(),
});
export type ChatUsage = z.infer<typeof chatUsageSchema>;

export const FINISH_REASONS = ['stop', 'length', 'tool_calls', 'content_filter', 'function_call'] as const;
export const finishReasonSchema = z.enum(FINISH_REASONS);
export type FinishReason = z.infer<typeof finishReasonSchema>;
export type ChatToolCall = z.infer<typeof toolCallSchema>;

/** A whole answer (reference/openai.md); `model` is always the name the client asked for. */
export const chatCompletionResponseSchema = z.looseObject({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.looseObject({
      index: count,
      message: z.looseObject({
        role: z.literal('assistant'),
        content: z.string().nullable(),
        reasoning_content: z.string().optional(),
        tool_calls: z.array(toolCallSchema).optional(),
        refusal: z.string().nullable().optional(),
      }),
      finish_reason: finishReasonSchema.nullable(),
      logprobs: z.null().optional(),
    }),
  ),
  usage: chatUsageSchema,
  system_fingerprint: z.string().optional(),
});
export type ChatCompletionResponse = z.infer<typeof chatCompletionResponseSchema>;

export const chatToolCallDeltaSchema = z.looseObject({
  index: count,
  id: z.string().optional(),
  type: z.literal('function').optional(),
  function: z.looseObject({ name: z.string().optional(), arguments: z.string().optional() }).optional(),
});
export type ChatToolCallDelta = z.infer<typeof chatToolCallDeltaSchema>;

/** One SSE chunk; the usage chunk has `choices: []`. */
export const chatCompletionChunkSchema = z.looseObject({
  id: z.string(),
  object: z.literal('chat.completion.chunk'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.looseObject({
      index: count,
      delta: z.looseObject({
        role: z.literal('assistant').optional(),
        content: z.string().nullable().optional(),
        reasoning_content: z.string().optional(),
        tool_calls: z.array(chatToolCallDeltaSchema).optional(),
      }),
      logprobs: z.null().optional(),
      finish_reason: finishReasonSchema.nullable(),
    }),
  ),
  usage: chatUsageSchema.nullable().optional(),
  system_fingerprint: z.string().optional(),
});
export type ChatCompletionChunk = z.infer<typeof chatCompletionChunkSchema>;

/** Upper bound of output tokens the request allows (for the worst-case hold). */
export function requestedMaxTokens(req: Pick<ChatCompletionRequest, 'max_tokens' | 'max_completion_tokens'>): number | undefined {
  return req.max_completion_tokens ?? req.max_tokens;
}
