/**
 * A Responses answer → a chat completion: output_text parts → content, refusals → refusal, reasoning
 * summaries (or reasoning text) → reasoning_content, function and custom tool calls → tool_calls
 * (a namespaced call under its chat name, a custom call's input as `{"input": ...}`), status →
 * finish_reason, usage → chat usage. Hosted-tool items have no chat form and are left out.
 */
import type {
  ChatCompletionResponse,
  ChatToolCall,
  ChatUsage,
  FinishReason,
  ResponsesOutputItem,
  ResponsesResponse,
  ResponsesUsage,
} from '@unigate/contracts';
import { chatToolName } from './openai-chat__openai-responses.tools';

export function responsesToChatResponse(res: ResponsesResponse, opts: { model: string; created?: number }): ChatCompletionResponse {
  let content: string | null = null;
  let reasoning: string | null = null;
  let refusal: string | null = null;
  const toolCalls: ChatToolCall[] = [];
  for (const item of res.output) {
    if (item.type === 'message') {
      for (const part of item.content) {
        if (part.type === 'output_text') content = (content ?? '') + part.text;
        else refusal = (refusal ?? '') + part.refusal;
      }
    } else if (item.type === 'reasoning') {
      const text = reasoningText(item);
      if (text) reasoning = (reasoning ?? '') + text;
    } else {
      const call = toolCallOf(item);
      if (call) toolCalls.push(call);
    }
  }
  const message: ChatCompletionResponse['choices'][number]['message'] = {
    role: 'assistant',
    content: content ?? (toolCalls.length > 0 ? null : ''),
    refusal,
  };
  if (reasoning !== null) message.reasoning_content = reasoning;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return {
    id: res.id,
    object: 'chat.completion',
    created: opts.created ?? Math.floor(res.created_at),
    model: opts.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReasonOf(res, toolCalls.length > 0) }],
    usage: chatUsage(res.usage),
  };
}

/** What a reasoning item shows: its summary, else its raw reasoning text. */
export function reasoningText(item: Extract<ResponsesOutputItem, { type: 'reasoning' }>): string {
  const summary = item.summary.map((s) => s.text).join('\n\n');
  return summary || (item.content ?? []).map((c) => c.text).join('');
}

/** A function or custom tool call as a chat tool call; undefined for other items. */
export function toolCallOf(item: ResponsesOutputItem): ChatToolCall | undefined {
  if (item.type === 'function_call') {
    return { id: item.call_id, type: 'function', function: { name: chatToolName(item.name, item.namespace), arguments: item.arguments } };
  }
  if (item.type === 'custom_tool_call') {
    return { id: item.call_id, type: 'function', function: { name: item.name, arguments: JSON.stringify({ input: item.input }) } };
  }
  return undefined;
}

export function finishReasonOf(res: Pick<ResponsesResponse, 'status' | 'incomplete_details'>, calledTools: boolean): FinishReason {
  if (res.status === 'incomplete') return res.incomplete_details?.reason === 'content_filter' ? 'content_filter' : 'length';
  return calledTools ? 'tool_calls' : 'stop';
}

export function chatUsage(u: ResponsesUsage | null | undefined): ChatUsage {
  const input = u?.input_tokens ?? 0;
  const output = u?.output_tokens ?? 0;
  return {
    prompt_tokens: input,
    completion_tokens: output,
    total_tokens: input + output,
    prompt_tokens_details: { cached_tokens: u?.input_tokens_details?.cached_tokens ?? 0 },
    completion_tokens_details: { reasoning_tokens: u?.output_tokens_details?.reasoning_tokens ?? 0 },
  };
}
