/**
 * The Responses API's answer: a `response` object with its output items and usage (shapes of the
 * official `openai` SDK). The same schemas check what a Responses-native upstream sends; loose, so
 * fields we do not model pass through.
 */
import { z } from 'zod';
import { promptUnits, type Usage } from '../pricing';
import {
  RESPONSES_PASSTHROUGH_ITEM_TYPES,
  responsesCustomToolCallItemSchema,
  responsesOutputTextSchema,
  responsesReasoningTextSchema,
  responsesRefusalSchema,
  responsesSummaryTextSchema,
} from './request';

const count = z.number().int().nonnegative();

/** input_tokens includes the cached ones; output_tokens includes reasoning. */
export const responsesUsageSchema = z.looseObject({
  input_tokens: count,
  output_tokens: count,
  total_tokens: count.nullish(),
  input_tokens_details: z.looseObject({ cached_tokens: count.nullish(), cache_write_tokens: count.nullish() }).nullish(),
  output_tokens_details: z.looseObject({ reasoning_tokens: count.nullish() }).nullish(),
});
export type ResponsesUsage = z.infer<typeof responsesUsageSchema>;

export const responsesOutputMessageSchema = z.looseObject({
  type: z.literal('message'),
  id: z.string(),
  role: z.literal('assistant'),
  status: z.string().nullish(),
  content: z.array(z.discriminatedUnion('type', [responsesOutputTextSchema, responsesRefusalSchema])),
});

export const responsesOutputFunctionCallSchema = z.looseObject({
  type: z.literal('function_call'),
  id: z.string().nullish(),
  call_id: z.string(),
  name: z.string(),
  arguments: z.string(),
  namespace: z.string().nullish(),
  status: z.string().nullish(),
});

export const responsesOutputReasoningSchema = z.looseObject({
  type: z.literal('reasoning'),
  id: z.string(),
  summary: z.array(responsesSummaryTextSchema),
  content: z.array(responsesReasoningTextSchema).nullish(),
  encrypted_content: z.string().nullish(),
  status: z.string().nullish(),
});

export const responsesOutputItemSchema = z.discriminatedUnion('type', [
  responsesOutputMessageSchema,
  responsesOutputFunctionCallSchema,
  responsesOutputReasoningSchema,
  responsesCustomToolCallItemSchema,
  z.looseObject({ type: z.enum([...RESPONSES_PASSTHROUGH_ITEM_TYPES, 'function_call_output', 'custom_tool_call_output']) }),
]);
export type ResponsesOutputItem = z.infer<typeof responsesOutputItemSchema>;
export type ResponsesOutputMessage = z.infer<typeof responsesOutputMessageSchema>;
export type ResponsesOutputFunctionCall = z.infer<typeof responsesOutputFunctionCallSchema>;
export type ResponsesOutputReasoning = z.infer<typeof responsesOutputReasoningSchema>;

export const RESPONSE_STATUSES = ['completed', 'failed', 'in_progress', 'cancelled', 'queued', 'incomplete'] as const;

export const responsesResponseSchema = z.looseObject({
  id: z.string(),
  object: z.literal('response'),
  created_at: z.number(),
  status: z.enum(RESPONSE_STATUSES).nullish(),
  model: z.string(),
  output: z.array(responsesOutputItemSchema),
  usage: responsesUsageSchema.nullish(),
  error: z.looseObject({ code: z.string().nullish(), message: z.string() }).nullish(),
  incomplete_details: z.looseObject({ reason: z.string().nullish() }).nullish(),
  previous_response_id: z.string().nullish(),
});
export type ResponsesResponse = z.infer<typeof responsesResponseSchema>;

/** What a response is billed for, in price units. */
export function usageFromResponses(u: ResponsesUsage): Usage {
  const details = u.input_tokens_details;
  return { ...promptUnits(u.input_tokens, details?.cached_tokens, details?.cache_write_tokens), output_tokens: u.output_tokens };
}
