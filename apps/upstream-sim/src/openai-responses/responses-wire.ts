/**
 * A ChatAnswer in the Responses API's wire formats (shapes of the official openai SDK): the response
 * object, or its SSE event sequence — response.created, response.in_progress, then per output item
 * output_item.added / its deltas and *.done events / output_item.done (a reasoning item with its
 * summary when asked, the message, or the tool call), and response.completed (response.incomplete
 * when max_output_tokens cut it) with the usage. Every event names itself in `event:` and carries
 * the next sequence_number.
 */
import type { ChatUsage, ResponsesOutputItem, ResponsesResponse, ResponsesStreamEvent, ResponsesUsage } from '@unigate/contracts';
import type { ChatAnswer } from '../openai/openai-chat-answer';
import { SeededRandom } from '../shared/seeded-random';
import type { SseEvent } from '../shared/sse-writer';
import type { OfferedTool } from './responses-prompt';

export interface ResponseMeta {
  id: string;
  model: string;
  createdAt: number;
  tools: ReadonlyMap<string, OfferedTool>;
  summary: boolean;
}

export function toResponse(answer: ChatAnswer, meta: ResponseMeta): ResponsesResponse {
  const cut = answer.finishReason === 'length';
  return {
    ...envelope(meta, cut ? 'incomplete' : 'completed'),
    ...(cut && { incomplete_details: { reason: 'max_output_tokens' } }),
    output: outputItems(answer, meta),
    usage: usageOf(answer.usage),
  };
}

/** The SSE events of a streamed answer; deltas are `counted` for the cut_after_chunks fault. */
export function* toResponseEvents(answer: ChatAnswer, meta: ResponseMeta): Generator<SseEvent> {
  let seq = 0;
  const ev = (e: Record<string, unknown> & { type: ResponsesStreamEvent['type'] }, counted = false): SseEvent => ({
    event: e.type,
    data: JSON.stringify({ ...e, sequence_number: seq++ }),
    counted,
  });
  const rng = new SeededRandom(answer.seed ^ 0x27d4eb2f);
  const started = envelope(meta, 'in_progress');
  yield ev({ type: 'response.created', response: started });
  yield ev({ type: 'response.in_progress', response: started });

  const items = outputItems(answer, meta);
  for (const [index, item] of items.entries()) {
    const at = { item_id: 'id' in item ? item.id : '', output_index: index };
    if (item.type === 'reasoning') {
      yield ev({ type: 'response.output_item.added', output_index: index, item: { ...item, summary: [], status: 'in_progress' } });
      const text = item.summary[0]?.text;
      if (text !== undefined) {
        yield ev({ type: 'response.reasoning_summary_part.added', ...at, summary_index: 0, part: { type: 'summary_text', text: '' } });
        for (const delta of groups(answer.reasoning ?? [], rng))
          yield ev({ type: 'response.reasoning_summary_text.delta', ...at, summary_index: 0, delta }, true);
        yield ev({ type: 'response.reasoning_summary_text.done', ...at, summary_index: 0, text });
        yield ev({ type: 'response.reasoning_summary_part.done', ...at, summary_index: 0, part: { type: 'summary_text', text } });
      }
    } else if (item.type === 'message') {
      const text = answer.content?.join('') ?? '';
      yield ev({ type: 'response.output_item.added', output_index: index, item: { ...item, status: 'in_progress', content: [] } });
      yield ev({ type: 'response.content_part.added', ...at, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
      for (const delta of groups(answer.content ?? [], rng))
        yield ev({ type: 'response.output_text.delta', ...at, content_index: 0, delta, logprobs: [] }, true);
      yield ev({ type: 'response.output_text.done', ...at, content_index: 0, text, logprobs: [] });
      yield ev({ type: 'response.content_part.done', ...at, content_index: 0, part: { type: 'output_text', text, annotations: [] } });
    } else if (item.type === 'function_call') {
      yield ev({ type: 'response.output_item.added', output_index: index, item: { ...item, arguments: '', status: 'in_progress' } });
      for (const delta of groups(answer.toolCall?.argumentPieces ?? [], rng))
        yield ev({ type: 'response.function_call_arguments.delta', ...at, delta }, true);
      yield ev({ type: 'response.function_call_arguments.done', ...at, arguments: item.arguments, name: item.name });
    } else if (item.type === 'custom_tool_call') {
      yield ev({ type: 'response.output_item.added', output_index: index, item: { ...item, input: '' } });
      yield ev({ type: 'response.custom_tool_call_input.delta', ...at, delta: item.input }, true);
      yield ev({ type: 'response.custom_tool_call_input.done', ...at, input: item.input });
    }
    yield ev({ type: 'response.output_item.done', output_index: index, item });
  }
  const done = toResponse(answer, meta);
  yield ev({ type: done.status === 'incomplete' ? 'response.incomplete' : 'response.completed', response: done });
}

function outputItems(answer: ChatAnswer, meta: ResponseMeta): ResponsesOutputItem[] {
  const out: ResponsesOutputItem[] = [];
  const id = (prefix: string) => `${prefix}_${meta.id.replace(/^resp_/, '')}${out.length}`;
  if (answer.reasoning) {
    const summary = meta.summary ? [{ type: 'summary_text' as const, text: answer.reasoning.join('') }] : [];
    out.push({ type: 'reasoning', id: id('rs'), summary, status: 'completed' });
  }
  if (answer.content) {
    out.push({
      type: 'message',
      id: id('msg'),
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: answer.content.join(''), annotations: [] }],
    });
  }
  const call = answer.toolCall;
  if (call) {
    const tool = meta.tools.get(call.name) ?? { name: call.name, kind: 'function' as const };
    const args = call.argumentPieces.join('');
    const namespace = tool.namespace ? { namespace: tool.namespace } : {};
    if (tool.kind === 'custom') {
      const input = (JSON.parse(args || '{}') as { input?: unknown }).input;
      out.push({
        type: 'custom_tool_call',
        id: id('ctc'),
        call_id: call.id,
        name: tool.name,
        input: typeof input === 'string' ? input : args,
        ...namespace,
      });
    } else {
      out.push({
        type: 'function_call',
        id: id('fc'),
        call_id: call.id,
        name: tool.name,
        arguments: args,
        status: 'completed',
        ...namespace,
      });
    }
  }
  return out;
}

function envelope(meta: ResponseMeta, status: 'in_progress' | 'completed' | 'incomplete'): ResponsesResponse {
  return {
    id: meta.id,
    object: 'response',
    created_at: meta.createdAt,
    status,
    error: null,
    incomplete_details: null,
    model: meta.model,
    output: [],
    usage: null,
  };
}

function usageOf(u: ChatUsage): ResponsesUsage {
  return {
    input_tokens: u.prompt_tokens,
    input_tokens_details: { cached_tokens: u.prompt_tokens_details?.cached_tokens ?? 0 },
    output_tokens: u.completion_tokens,
    output_tokens_details: { reasoning_tokens: u.completion_tokens_details?.reasoning_tokens ?? 0 },
    total_tokens: u.total_tokens,
  };
}

/** One to three token pieces per delta, like a real model's uneven deltas. */
function* groups(pieces: string[], rng: SeededRandom): Generator<string> {
  for (let i = 0; i < pieces.length;) {
    const n = rng.int(1, 3);
    yield pieces.slice(i, i + n).join('');
    i += n;
  }
}
