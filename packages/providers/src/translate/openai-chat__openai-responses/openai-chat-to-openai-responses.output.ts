/**
 * The pieces of a Responses answer built from chat output, shared by the whole-answer and the stream
 * translators so both produce the same items: output items (reasoning, message, tool calls), the
 * response envelope that echoes the request's settings, the status a finish reason means, and usage.
 */
import {
  usageFromChat,
  type ChatToolCall,
  type ChatUsage,
  type FinishReason,
  type ResponsesOutputItem,
  type ResponsesRequest,
  type ResponsesResponse,
  type ResponsesUsage,
} from '@unigate/contracts';
import { customInput, type ToolNames } from './openai-chat__openai-responses.tools';

export interface ResponseContext {
  req: ResponsesRequest;
  /** The response id (the gateway's: responseIdFor(request id)). */
  id: string;
  tools: ToolNames;
  /** Unix seconds. */
  createdAt: number;
}

type Status = 'in_progress' | 'completed' | 'incomplete';

/** Item ids are derived from the response id, so a stream and its final response agree. */
export function itemId(ctx: Pick<ResponseContext, 'id'>, prefix: 'msg' | 'fc' | 'rs' | 'ctc', index: number): string {
  return `${prefix}_${ctx.id.replace(/^resp_/, '')}_${index}`;
}

/** Reasoning shows as its summary when the client asked for one; otherwise the item stays empty, as OpenAI's does. */
export function reasoningItem(id: string, summary: string | null, status: Status): ResponsesOutputItem {
  return { type: 'reasoning', id, summary: summary === null ? [] : [{ type: 'summary_text', text: summary }], status };
}

export function messageItem(id: string, text: string | null, status: Status): ResponsesOutputItem {
  return {
    type: 'message',
    id,
    role: 'assistant',
    status,
    content: text === null ? [] : [{ type: 'output_text', text, annotations: [] }],
  };
}

/** A chat tool call as the function_call or custom_tool_call the client declared. */
export function toolCallItem(ctx: ResponseContext, index: number, call: ChatToolCall, status: Status): ResponsesOutputItem {
  const target = ctx.tools.target(call.function.name);
  const namespace = target.namespace ? { namespace: target.namespace } : {};
  if (target.kind === 'custom') {
    return {
      type: 'custom_tool_call',
      id: itemId(ctx, 'ctc', index),
      call_id: call.id,
      name: target.name,
      input: status === 'in_progress' ? '' : customInput(call.function.arguments),
      status,
      ...namespace,
    };
  }
  return {
    type: 'function_call',
    id: itemId(ctx, 'fc', index),
    call_id: call.id,
    name: target.name,
    arguments: status === 'in_progress' ? '' : call.function.arguments,
    status,
    ...namespace,
  };
}

/**
 * An answer cut short (max_output_tokens, content filter) leaves its last item unfinished: that item
 * says `incomplete`, as OpenAI's does, and the items before it `completed`.
 */
export function itemStatusAt(state: Pick<ResponsesResponse, 'status'>, index: number, count: number): 'completed' | 'incomplete' {
  return state.status === 'incomplete' && index === count - 1 ? 'incomplete' : 'completed';
}

/** How the answer ended, in the Responses API's terms. */
export function statusOf(finish: FinishReason | null | undefined): Pick<ResponsesResponse, 'status' | 'incomplete_details'> {
  if (finish === 'length') return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (finish === 'content_filter') return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  return { status: 'completed', incomplete_details: null };
}

export function responsesUsage(u: ChatUsage): ResponsesUsage {
  const { cached_input_tokens, cache_write_input_tokens } = usageFromChat(u);
  return {
    input_tokens: u.prompt_tokens,
    input_tokens_details: {
      cached_tokens: cached_input_tokens ?? 0,
      ...(cache_write_input_tokens && { cache_write_tokens: cache_write_input_tokens }),
    },
    output_tokens: u.completion_tokens,
    output_tokens_details: { reasoning_tokens: u.completion_tokens_details?.reasoning_tokens ?? 0 },
    total_tokens: u.prompt_tokens + u.completion_tokens,
  };
}

/** The response object around `output`, echoing the settings the request was made with. */
export function responseEnvelope(
  ctx: ResponseContext,
  output: ResponsesOutputItem[],
  state: Pick<ResponsesResponse, 'status' | 'incomplete_details'>,
  usage: ResponsesUsage | null,
): ResponsesResponse {
  const { req } = ctx;
  return {
    id: ctx.id,
    object: 'response',
    created_at: ctx.createdAt,
    ...state,
    ...(state.status === 'completed' && { completed_at: Math.floor(Date.now() / 1000) }),
    error: null,
    model: req.model,
    output,
    usage,
    instructions: req.instructions ?? null,
    max_output_tokens: req.max_output_tokens ?? null,
    parallel_tool_calls: req.parallel_tool_calls ?? true,
    previous_response_id: req.previous_response_id ?? null,
    reasoning: req.reasoning ?? { effort: null, summary: null },
    store: req.store ?? true,
    temperature: req.temperature ?? 1,
    text: req.text ?? { format: { type: 'text' } },
    tool_choice: req.tool_choice ?? 'auto',
    tools: req.tools ?? [],
    top_p: req.top_p ?? 1,
    truncation: 'disabled',
    metadata: req.metadata ?? {},
  };
}

/** Whether the client asked to see reasoning (a summary); OpenAI shows none otherwise. */
export function wantsSummary(req: ResponsesRequest): boolean {
  return Boolean(req.reasoning?.summary);
}
