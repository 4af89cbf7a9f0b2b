/**
 * POST /v1/responses — the request of OpenAI's Responses API as our endpoint validates it (shapes
 * checked against the official `openai` SDK, resources/responses/responses.d.ts). What Codex CLI and
 * the SDK send passes: objects are loose, so fields we do not model (include, prompt_cache_key,
 * client_metadata, strict, ...) reach a Responses-native upstream untouched. Only what the API itself
 * would refuse, or what the gateway cannot do (background runs, server-side conversations), is a 400.
 *
 * Item and tool types are closed lists — the ones we translate plus the ones we only pass through —
 * so code can switch on `type`; hosted tools are open-ended (they carry dated names), so they are
 * matched by "not one of ours".
 */
import { z } from 'zod';
import { MAX_MESSAGES } from '../limits';
import { requestBodyError } from '../validation';

const range = (min: number, max: number, field: string) =>
  z
    .number({ error: `${field} must be a number` })
    .min(min, `${field} must be between ${min} and ${max}`)
    .max(max, `${field} must be between ${min} and ${max}`);

// ---- content parts ----------------------------------------------------------------------------------

export const responsesInputTextSchema = z.looseObject({ type: z.literal('input_text'), text: z.string() });
export const responsesInputImageSchema = z.looseObject({
  type: z.literal('input_image'),
  image_url: z.string().nullish(),
  file_id: z.string().nullish(),
  detail: z.string().nullish(),
});
export const responsesInputFileSchema = z.looseObject({
  type: z.literal('input_file'),
  file_data: z.string().nullish(),
  file_id: z.string().nullish(),
  file_url: z.string().nullish(),
  filename: z.string().nullish(),
});
export const responsesOutputTextSchema = z.looseObject({
  type: z.literal('output_text'),
  text: z.string(),
  annotations: z.array(z.unknown()).optional(),
});
export const responsesRefusalSchema = z.looseObject({ type: z.literal('refusal'), refusal: z.string() });

const PART_TYPES = 'input_text, input_image, input_file, output_text, refusal';
const contentPartSchema = z.discriminatedUnion(
  'type',
  [responsesInputTextSchema, responsesInputImageSchema, responsesInputFileSchema, responsesOutputTextSchema, responsesRefusalSchema],
  { error: (iss) => (iss.code === 'invalid_union' ? `content part type must be one of: ${PART_TYPES}` : undefined) },
);
export type ResponsesContentPart = z.infer<typeof contentPartSchema>;

/** What a tool result may hold besides a string. */
const toolOutputSchema = z.union(
  [z.string(), z.array(z.discriminatedUnion('type', [responsesInputTextSchema, responsesInputImageSchema, responsesInputFileSchema]))],
  { error: 'output must be a string or an array of input_text, input_image or input_file parts' },
);

// ---- input items ------------------------------------------------------------------------------------

const status = z.string().nullish();

export const responsesMessageItemSchema = z.looseObject({
  type: z.literal('message'),
  role: z.enum(['user', 'assistant', 'system', 'developer'], { error: 'role must be one of: user, assistant, system, developer' }),
  content: z.union([z.string(), z.array(contentPartSchema)], { error: 'content must be a string or an array of content parts' }),
  id: z.string().nullish(),
  status,
});

export const responsesFunctionCallItemSchema = z.looseObject({
  type: z.literal('function_call'),
  call_id: z.string().min(1, 'call_id must not be empty'),
  name: z.string().min(1, 'name must not be empty'),
  arguments: z.string({ error: 'arguments must be a JSON string' }),
  /** The namespace tool the function belongs to. */
  namespace: z.string().nullish(),
  id: z.string().nullish(),
  status,
});

export const responsesFunctionCallOutputItemSchema = z.looseObject({
  type: z.literal('function_call_output'),
  call_id: z.string().min(1, 'call_id must not be empty'),
  output: toolOutputSchema,
  id: z.string().nullish(),
  status,
});

/** A freeform (custom) tool call: its input is plain text, not JSON. */
export const responsesCustomToolCallItemSchema = z.looseObject({
  type: z.literal('custom_tool_call'),
  call_id: z.string().min(1, 'call_id must not be empty'),
  name: z.string().min(1, 'name must not be empty'),
  input: z.string(),
  namespace: z.string().nullish(),
  id: z.string().nullish(),
  status,
});

export const responsesCustomToolCallOutputItemSchema = z.looseObject({
  type: z.literal('custom_tool_call_output'),
  call_id: z.string().min(1, 'call_id must not be empty'),
  output: toolOutputSchema,
  id: z.string().nullish(),
});

export const responsesSummaryTextSchema = z.looseObject({ type: z.literal('summary_text'), text: z.string() });
export const responsesReasoningTextSchema = z.looseObject({ type: z.literal('reasoning_text'), text: z.string() });

export const responsesReasoningItemSchema = z.looseObject({
  type: z.literal('reasoning'),
  id: z.string().nullish(),
  summary: z.array(responsesSummaryTextSchema).default([]),
  content: z.array(responsesReasoningTextSchema).nullish(),
  encrypted_content: z.string().nullish(),
  status,
});

/**
 * Items of hosted tools (they ran at the vendor), references to stored items and other kinds we
 * carry to a Responses upstream as they are; a translated upstream has no use for them.
 */
export const RESPONSES_PASSTHROUGH_ITEM_TYPES = [
  'item_reference',
  'file_search_call',
  'web_search_call',
  'computer_call',
  'computer_call_output',
  'code_interpreter_call',
  'image_generation_call',
  'tool_search_call',
  'tool_search_output',
  'local_shell_call',
  'local_shell_call_output',
  'shell_call',
  'shell_call_output',
  'apply_patch_call',
  'apply_patch_call_output',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'mcp_call',
  'compaction',
  'compaction_trigger',
  'additional_tools',
  'program',
  'program_output',
] as const;
const passthroughItemSchema = z.looseObject({ type: z.enum(RESPONSES_PASSTHROUGH_ITEM_TYPES) });

const ITEM_TYPES = [
  'message',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'reasoning',
  ...RESPONSES_PASSTHROUGH_ITEM_TYPES,
];

const typedItemSchema = z.discriminatedUnion(
  'type',
  [
    responsesMessageItemSchema,
    responsesFunctionCallItemSchema,
    responsesFunctionCallOutputItemSchema,
    responsesCustomToolCallItemSchema,
    responsesCustomToolCallOutputItemSchema,
    responsesReasoningItemSchema,
    passthroughItemSchema,
  ],
  { error: (iss) => (iss.code === 'invalid_union' ? `input item type must be one of: ${ITEM_TYPES.join(', ')}` : undefined) },
);

/** A message may leave out `type` (the SDK's EasyInputMessage): it is a message when it has a role. */
export const responsesInputItemSchema = z.preprocess(
  (v) => (v && typeof v === 'object' && !Array.isArray(v) && !('type' in v) && 'role' in v ? { ...v, type: 'message' } : v),
  typedItemSchema,
);
export type ResponsesInputItem = z.infer<typeof typedItemSchema>;
export type ResponsesMessageItem = z.infer<typeof responsesMessageItemSchema>;
export type ResponsesFunctionCallItem = z.infer<typeof responsesFunctionCallItemSchema>;
export type ResponsesReasoningItem = z.infer<typeof responsesReasoningItemSchema>;

// ---- tools ------------------------------------------------------------------------------------------

export const responsesFunctionToolSchema = z.looseObject({
  type: z.literal('function'),
  name: z.string({ error: 'name is required' }).min(1, 'name must not be empty'),
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown(), { error: 'parameters must be a JSON Schema object' }).nullish(),
  strict: z.boolean().nullish(),
  defer_loading: z.boolean().optional(),
});

export const responsesCustomToolSchema = z.looseObject({
  type: z.literal('custom'),
  name: z.string({ error: 'name is required' }).min(1, 'name must not be empty'),
  description: z.string().nullish(),
  format: z.looseObject({ type: z.string() }).nullish(),
});

/** Function and custom tools grouped under a name the model calls them by. */
export const responsesNamespaceToolSchema = z.looseObject({
  type: z.literal('namespace'),
  name: z.string({ error: 'name is required' }).min(1, 'name must not be empty'),
  description: z.string().nullish(),
  tools: z.array(z.discriminatedUnion('type', [responsesFunctionToolSchema, responsesCustomToolSchema]), {
    error: 'tools must be an array of function or custom tools',
  }),
});

const CLIENT_TOOL_TYPES = ['function', 'custom', 'namespace'];

/** A tool the vendor runs (web_search, file_search, code_interpreter, mcp, ...; names carry dates). */
export const responsesHostedToolSchema = z.looseObject({
  // Aborting, so a malformed client tool is reported by its own fields rather than by this branch.
  type: z.string().refine((t) => !CLIENT_TOOL_TYPES.includes(t), { message: 'not a hosted tool type', abort: true }),
});

/** Client tools first, so a malformed one is reported by its own fields. */
export const responsesToolSchema = z.union([
  z.discriminatedUnion('type', [responsesFunctionToolSchema, responsesCustomToolSchema, responsesNamespaceToolSchema]),
  responsesHostedToolSchema,
]);
export type ResponsesTool = z.infer<typeof responsesToolSchema>;
export type ResponsesFunctionTool = z.infer<typeof responsesFunctionToolSchema>;
export type ResponsesCustomTool = z.infer<typeof responsesCustomToolSchema>;
export type ResponsesNamespaceTool = z.infer<typeof responsesNamespaceToolSchema>;

/** A choice of one of the client's tools: one discriminated union, so a malformed one is named by its own fields. */
const clientToolChoiceSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('function'), name: z.string().min(1, 'name must name the function the model must call') }),
  z.looseObject({ type: z.literal('custom'), name: z.string().min(1, 'name must name the tool the model must call') }),
  z.looseObject({
    type: z.literal('allowed_tools'),
    mode: z.enum(['auto', 'required']),
    tools: z.array(z.looseObject({ type: z.string() })),
  }),
]);

export const responsesToolChoiceSchema = z.union(
  [
    z.enum(['none', 'auto', 'required']),
    clientToolChoiceSchema,
    // A hosted tool (`{"type": "web_search_preview"}`...).
    z.looseObject({ type: z.string().refine((t) => !['function', 'custom', 'allowed_tools'].includes(t), { abort: true }) }),
  ],
  { error: "tool_choice must be 'none', 'auto', 'required' or a tool choice object" },
);
export type ResponsesToolChoice = z.infer<typeof responsesToolChoiceSchema>;

// ---- settings ---------------------------------------------------------------------------------------

export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;

export const responsesReasoningSchema = z.looseObject({
  effort: z.enum(REASONING_EFFORTS, { error: `effort must be one of: ${REASONING_EFFORTS.join(', ')}` }).nullish(),
  summary: z.enum(['auto', 'concise', 'detailed'], { error: 'summary must be one of: auto, concise, detailed' }).nullish(),
});

export const responsesTextFormatSchema = z.discriminatedUnion(
  'type',
  [
    z.looseObject({ type: z.literal('text') }),
    z.looseObject({ type: z.literal('json_object') }),
    z.looseObject({
      type: z.literal('json_schema'),
      name: z.string({ error: 'name is required' }).min(1, 'name must not be empty'),
      schema: z.record(z.string(), z.unknown(), { error: 'schema must be a JSON Schema object' }),
      description: z.string().nullish(),
      strict: z.boolean().nullish(),
    }),
  ],
  { error: (iss) => (iss.code === 'invalid_union' ? 'format type must be one of: text, json_object, json_schema' : undefined) },
);

export const responsesTextSchema = z.looseObject({ format: responsesTextFormatSchema.nullish(), verbosity: z.string().nullish() });

// ---- the request ------------------------------------------------------------------------------------

export const responsesRequestSchema = z
  .looseObject(
    {
      model: z.string({ error: 'model is required' }).min(1, 'model is required'),
      input: z
        .union([z.string(), z.array(responsesInputItemSchema).max(MAX_MESSAGES, `input must hold at most ${MAX_MESSAGES} items`)], {
          error: 'input must be a string or an array of input items',
        })
        .optional(),
      instructions: z.string({ error: 'instructions must be a string' }).nullish(),
      tools: z.array(responsesToolSchema, { error: 'tools must be an array' }).nullish(),
      tool_choice: responsesToolChoiceSchema.nullish(),
      parallel_tool_calls: z.boolean({ error: 'parallel_tool_calls must be a boolean' }).nullish(),
      reasoning: responsesReasoningSchema.nullish(),
      max_output_tokens: z
        .number({ error: 'max_output_tokens must be a positive integer' })
        .int('max_output_tokens must be a positive integer')
        .positive('max_output_tokens must be a positive integer')
        .nullish(),
      text: responsesTextSchema.nullish(),
      temperature: range(0, 2, 'temperature').nullish(),
      top_p: range(0, 1, 'top_p').nullish(),
      store: z.boolean({ error: 'store must be a boolean' }).nullish(),
      stream: z.boolean({ error: 'stream must be a boolean' }).nullish(),
      previous_response_id: z.string({ error: 'previous_response_id must be a string' }).min(1).nullish(),
      metadata: z.record(z.string(), z.string(), { error: 'metadata must be an object of strings' }).nullish(),
      user: z.string().nullish(),
      background: z.boolean().nullish(),
      conversation: z.unknown().optional(),
    },
    { error: requestBodyError },
  )
  .superRefine((r, ctx) => {
    if (r.input === undefined && !r.previous_response_id) ctx.addIssue({ code: 'custom', path: ['input'], message: 'input is required' });
    // Nothing to answer: every upstream refuses an empty conversation, in its own words.
    if ((r.input === '' || (Array.isArray(r.input) && r.input.length === 0)) && !r.previous_response_id)
      ctx.addIssue({ code: 'custom', path: ['input'], message: 'input must not be empty' });
    if (r.background === true)
      ctx.addIssue({ code: 'custom', path: ['background'], message: 'background responses are not supported by this gateway' });
    if (r.conversation !== undefined && r.conversation !== null) {
      ctx.addIssue({
        code: 'custom',
        path: ['conversation'],
        message: 'conversations are not supported by this gateway; continue with previous_response_id',
      });
    }
  });

export type ResponsesRequest = z.infer<typeof responsesRequestSchema>;

/** The request's input as items (a string is one user message). */
export function inputItems(req: Pick<ResponsesRequest, 'input'>): ResponsesInputItem[] {
  if (req.input === undefined) return [];
  if (typeof req.input === 'string') return [{ type: 'message', role: 'user', content: req.input }];
  return req.input;
}
