/**
 * A chat completion → a Responses `response`: reasoning_content → a reasoning item (its summary when
 * the client asked for one), content → an assistant message with one output_text part (a refusal →
 * a refusal part), tool_calls → function_call / custom_tool_call items in the client's own names,
 * finish_reason → status (length → incomplete, max_output_tokens), usage → Responses usage.
 */
import type { ChatCompletionResponse, ResponsesOutputItem, ResponsesResponse } from '@unigate/contracts';
import {
  itemId,
  messageItem,
  reasoningItem,
  responseEnvelope,
  responsesUsage,
  statusOf,
  toolCallItem,
  wantsSummary,
  type ResponseContext,
} from './openai-chat-to-openai-responses.output';

export function chatToResponsesResponse(res: ChatCompletionResponse, ctx: ResponseContext): ResponsesResponse {
  const choice = res.choices[0];
  const m = choice?.message;
  const output: ResponsesOutputItem[] = [];
  if (m?.reasoning_content) {
    output.push(reasoningItem(itemId(ctx, 'rs', output.length), wantsSummary(ctx.req) ? m.reasoning_content : null, 'completed'));
  }
  if (m?.content) output.push(messageItem(itemId(ctx, 'msg', output.length), m.content, 'completed'));
  else if (m?.refusal) {
    output.push({
      type: 'message',
      id: itemId(ctx, 'msg', output.length),
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'refusal', refusal: m.refusal }],
    });
  }
  for (const call of m?.tool_calls ?? []) output.push(toolCallItem(ctx, output.length, call, 'completed'));
  return responseEnvelope(ctx, output, statusOf(choice?.finish_reason), responsesUsage(res.usage));
}
