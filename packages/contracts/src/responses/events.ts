/**
 * The Responses API's stream: typed events, each named by its `type` (also the SSE `event:` name) and
 * numbered by `sequence_number` (shapes of the official `openai` SDK). The events we produce are
 * modelled field by field; the hosted-tool events a Responses upstream may add pass through as they
 * are. Compatible upstreams sometimes leave out sequence numbers, so they are optional here.
 */
import { z } from 'zod';
import { responsesOutputTextSchema, responsesReasoningTextSchema, responsesRefusalSchema, responsesSummaryTextSchema } from './request';
import { responsesOutputItemSchema, responsesResponseSchema } from './response';

const count = z.number().int().nonnegative();
const seq = { sequence_number: count.optional() };
const inItem = { item_id: z.string(), output_index: count, ...seq };
const inPart = { ...inItem, content_index: count };
const inSummary = { ...inItem, summary_index: count };

const lifecycle = <T extends string>(type: T) => z.looseObject({ type: z.literal(type), response: responsesResponseSchema, ...seq });
const contentPart = z.discriminatedUnion('type', [responsesOutputTextSchema, responsesRefusalSchema, responsesReasoningTextSchema]);

/** Events of hosted tools and annotations: a Responses upstream's own, passed to the client as they are. */
export const RESPONSES_PASSTHROUGH_EVENT_TYPES = [
  'response.output_text.annotation.added',
  'response.web_search_call.in_progress',
  'response.web_search_call.searching',
  'response.web_search_call.completed',
  'response.file_search_call.in_progress',
  'response.file_search_call.searching',
  'response.file_search_call.completed',
  'response.code_interpreter_call.in_progress',
  'response.code_interpreter_call.interpreting',
  'response.code_interpreter_call.completed',
  'response.code_interpreter_call_code.delta',
  'response.code_interpreter_call_code.done',
  'response.image_generation_call.in_progress',
  'response.image_generation_call.generating',
  'response.image_generation_call.partial_image',
  'response.image_generation_call.completed',
  'response.mcp_call.in_progress',
  'response.mcp_call.completed',
  'response.mcp_call.failed',
  'response.mcp_call_arguments.delta',
  'response.mcp_call_arguments.done',
  'response.mcp_list_tools.in_progress',
  'response.mcp_list_tools.completed',
  'response.mcp_list_tools.failed',
  'response.audio.delta',
  'response.audio.done',
  'response.audio.transcript.delta',
  'response.audio.transcript.done',
] as const;

export const responsesStreamEventSchema = z.discriminatedUnion('type', [
  lifecycle('response.created'),
  lifecycle('response.queued'),
  lifecycle('response.in_progress'),
  lifecycle('response.completed'),
  lifecycle('response.incomplete'),
  lifecycle('response.failed'),
  z.looseObject({ type: z.literal('response.output_item.added'), output_index: count, item: responsesOutputItemSchema, ...seq }),
  z.looseObject({ type: z.literal('response.output_item.done'), output_index: count, item: responsesOutputItemSchema, ...seq }),
  z.looseObject({ type: z.literal('response.content_part.added'), ...inPart, part: contentPart }),
  z.looseObject({ type: z.literal('response.content_part.done'), ...inPart, part: contentPart }),
  z.looseObject({ type: z.literal('response.output_text.delta'), ...inPart, delta: z.string() }),
  z.looseObject({ type: z.literal('response.output_text.done'), ...inPart, text: z.string() }),
  z.looseObject({ type: z.literal('response.refusal.delta'), ...inPart, delta: z.string() }),
  z.looseObject({ type: z.literal('response.refusal.done'), ...inPart, refusal: z.string() }),
  z.looseObject({ type: z.literal('response.function_call_arguments.delta'), ...inItem, delta: z.string() }),
  z.looseObject({ type: z.literal('response.function_call_arguments.done'), ...inItem, arguments: z.string(), name: z.string().nullish() }),
  z.looseObject({ type: z.literal('response.custom_tool_call_input.delta'), ...inItem, delta: z.string() }),
  z.looseObject({ type: z.literal('response.custom_tool_call_input.done'), ...inItem, input: z.string() }),
  z.looseObject({ type: z.literal('response.reasoning_summary_part.added'), ...inSummary, part: responsesSummaryTextSchema }),
  z.looseObject({ type: z.literal('response.reasoning_summary_part.done'), ...inSummary, part: responsesSummaryTextSchema }),
  z.looseObject({ type: z.literal('response.reasoning_summary_text.delta'), ...inSummary, delta: z.string() }),
  z.looseObject({ type: z.literal('response.reasoning_summary_text.done'), ...inSummary, text: z.string() }),
  z.looseObject({ type: z.literal('response.reasoning_text.delta'), ...inPart, delta: z.string() }),
  z.looseObject({ type: z.literal('response.reasoning_text.done'), ...inPart, text: z.string() }),
  z.looseObject({ type: z.literal('error'), code: z.string().nullish(), message: z.string(), param: z.string().nullish(), ...seq }),
  z.looseObject({ type: z.enum(RESPONSES_PASSTHROUGH_EVENT_TYPES), ...seq }),
]);
export type ResponsesStreamEvent = z.infer<typeof responsesStreamEventSchema>;
export type ResponsesStreamEventType = ResponsesStreamEvent['type'];

/** The events that end a stream, each carrying the whole response. */
export const RESPONSES_TERMINAL_EVENTS = ['response.completed', 'response.incomplete', 'response.failed'] as const;
