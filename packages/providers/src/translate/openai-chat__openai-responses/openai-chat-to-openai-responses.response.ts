/**
 * A chat completion → a Responses `response`: reasoning_content → a reasoning item (its summary when
 * the client asked for one), content → an assistant message with one output_text part (a refusal →
 * a refusal part), tool_calls → function_call / custom_tool_call items in the client's own names,
 * finish_reason → status (length → incomplete, max_output_tokens), usage → Responses usage.
 */
import type { ChatCompletionResponse, ResponsesOutputItem, ResponsesResponse } from '@unigate/contracts';
import {
  itemId,
  itemStatusAt,
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
  const state = statusOf(choice?.finish_reason);
  // The items in order, each made once its status is known (only the last can be cut short).
  const items: Array<(status: 'completed' | 'incomplete', index: number) => ResponsesOutputItem> = [];
  if (m?.reasoning_content) {
    const summary = wantsSummary(ctx.req) ? m.reasoning_content : null;
    items.push((status, index) => reasoningItem(itemId(ctx, 'rs', index), summary, status));
  }
  if (m?.content) {
    const text = m.content;
    items.push((status, index) => messageItem(itemId(ctx, 'msg', index), text, status));
  } else if (m?.refusal) {
    const refusal = m.refusal;
    items.push((status, index) => ({
      type: 'message',
      id: itemId(ctx, 'msg', index),
      role: 'assistant',
      status,
      content: [{ type: 'refusal', refusal }],
    }));
  }
  for (const call of m?.tool_calls ?? []) items.push((status, index) => toolCallItem(ctx, index, call, status));
  const output = items.map((make, index) => make(itemStatusAt(state, index, items.length), index));
  return responseEnvelope(ctx, output, state, responsesUsage(res.usage));
}
