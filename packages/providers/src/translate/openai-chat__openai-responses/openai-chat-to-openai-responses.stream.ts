/**
 * Chat-completion chunks → the Responses API's typed event sequence, one chunk at a time (no
 * buffering beyond the text of the items still open):
 *
 *   response.created, response.in_progress                      (on the first chunk)
 *   reasoning_content → output_item.added (reasoning)
 *                       [reasoning_summary_part.added, reasoning_summary_text.delta ...]   (summary asked)
 *   content           → output_item.added (message), content_part.added, output_text.delta ...
 *   tool_calls        → output_item.added (function_call), function_call_arguments.delta ...
 *                       (a custom tool's input is known only whole: one custom_tool_call_input.delta)
 *   closing an item   → its *.done events, then output_item.done
 *   the end           → response.completed (response.incomplete when cut by max_output_tokens),
 *                       carrying the whole response and its usage
 *   a failure         → response.failed with the response so far (once the stream began)
 *
 * Every event carries the next sequence_number. Reasoning and text close when the other kind starts;
 * tool calls stay open until the finish, so fragments of parallel calls can interleave.
 */
import {
  GatewayError,
  responseFailure,
  type ChatCompletionChunk,
  type ChatUsage,
  type FinishReason,
  type ResponsesOutputItem,
  type ResponsesStreamEvent,
} from '@unigate/contracts';
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

type Event = ResponsesStreamEvent;
type Emit = (event: Record<string, unknown> & { type: Event['type'] }) => void;

interface OpenText {
  kind: 'reasoning' | 'message';
  index: number;
  id: string;
  text: string;
}

interface OpenCall {
  index: number;
  id: string;
  name: string;
  args: string;
}

export class ChatToResponsesStream {
  private seq = 0;
  private started = false;
  private readonly output: ResponsesOutputItem[] = [];
  private text: OpenText | null = null;
  /** chat tool_call index → the open call */
  private readonly calls = new Map<number, OpenCall>();
  private finish: FinishReason | null = null;
  private usage: ChatUsage | null = null;
  private readonly summary: boolean;

  constructor(private readonly ctx: ResponseContext) {
    this.summary = wantsSummary(ctx.req);
  }

  push(chunk: ChatCompletionChunk): Event[] {
    const out: Event[] = [];
    const emit = this.emitter(out);
    if (!this.started) this.start(emit);
    if (chunk.usage) this.usage = chunk.usage;
    const choice = chunk.choices.find((c) => c.index === 0);
    if (!choice) return out;
    const d = choice.delta;
    if (d.reasoning_content) this.writeText(emit, 'reasoning', d.reasoning_content);
    if (d.content) this.writeText(emit, 'message', d.content);
    for (const call of d.tool_calls ?? []) this.writeCall(emit, call);
    if (choice.finish_reason) {
      this.finish = choice.finish_reason;
      this.closeAll(emit);
    }
    return out;
  }

  /**
   * The terminal event of a stream the upstream broke off: response.failed carrying the response so
   * far (model, created_at, the items written, the one being written `incomplete`), as OpenAI ends a
   * failed stream. Nothing closes with *.done events: the items did not finish.
   */
  fail(err: GatewayError): Event[] {
    const out: Event[] = [];
    const output = [...this.output];
    const open = this.text;
    if (open) {
      output[open.index] =
        open.kind === 'message'
          ? messageItem(open.id, open.text, 'incomplete')
          : reasoningItem(open.id, this.summary ? open.text : null, 'incomplete');
    }
    for (const call of this.calls.values()) output[call.index] = this.callItem(call, 'incomplete');
    const usage = this.usage && responsesUsage(this.usage);
    const response = {
      ...responseEnvelope(this.ctx, output, { status: 'failed', incomplete_details: null }, usage),
      error: responseFailure(err),
    };
    this.emitter(out)({ type: 'response.failed', response });
    return out;
  }

  /** Whether the stream began (response.created went out). */
  get begun(): boolean {
    return this.started;
  }

  /** The closing events, once the chunks ended normally. */
  end(): Event[] {
    const out: Event[] = [];
    const emit = this.emitter(out);
    if (!this.started) this.start(emit);
    this.closeAll(emit);
    const state = statusOf(this.finish);
    const usage = responsesUsage(this.usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
    const response = responseEnvelope(this.ctx, [...this.output], state, usage);
    emit({ type: state.status === 'incomplete' ? 'response.incomplete' : 'response.completed', response });
    return out;
  }

  private emitter(out: Event[]): Emit {
    return (event) => out.push({ ...event, sequence_number: this.seq++ } as Event);
  }

  private start(emit: Emit): void {
    this.started = true;
    const response = responseEnvelope(this.ctx, [], { status: 'in_progress', incomplete_details: null }, null);
    emit({ type: 'response.created', response });
    emit({ type: 'response.in_progress', response });
  }

  private writeText(emit: Emit, kind: OpenText['kind'], delta: string): void {
    if (this.text?.kind !== kind) {
      this.closeText(emit);
      this.openText(emit, kind);
    }
    const open = this.text!;
    open.text += delta;
    const at = { item_id: open.id, output_index: open.index };
    if (kind === 'message') emit({ type: 'response.output_text.delta', ...at, content_index: 0, delta, logprobs: [] });
    else if (this.summary) emit({ type: 'response.reasoning_summary_text.delta', ...at, summary_index: 0, delta });
  }

  private openText(emit: Emit, kind: OpenText['kind']): void {
    const index = this.output.length;
    const id = itemId(this.ctx, kind === 'message' ? 'msg' : 'rs', index);
    const item = kind === 'message' ? messageItem(id, null, 'in_progress') : reasoningItem(id, null, 'in_progress');
    this.output.push(item);
    this.text = { kind, index, id, text: '' };
    emit({ type: 'response.output_item.added', output_index: index, item });
    const at = { item_id: id, output_index: index };
    if (kind === 'message') {
      emit({ type: 'response.content_part.added', ...at, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
    } else if (this.summary) {
      emit({ type: 'response.reasoning_summary_part.added', ...at, summary_index: 0, part: { type: 'summary_text', text: '' } });
    }
  }

  private closeText(emit: Emit, status: 'completed' | 'incomplete' = 'completed'): void {
    const open = this.text;
    if (!open) return;
    this.text = null;
    const at = { item_id: open.id, output_index: open.index };
    let item: ResponsesOutputItem;
    if (open.kind === 'message') {
      emit({ type: 'response.output_text.done', ...at, content_index: 0, text: open.text, logprobs: [] });
      emit({
        type: 'response.content_part.done',
        ...at,
        content_index: 0,
        part: { type: 'output_text', text: open.text, annotations: [] },
      });
      item = messageItem(open.id, open.text, status);
    } else {
      if (this.summary) {
        emit({ type: 'response.reasoning_summary_text.done', ...at, summary_index: 0, text: open.text });
        emit({ type: 'response.reasoning_summary_part.done', ...at, summary_index: 0, part: { type: 'summary_text', text: open.text } });
      }
      item = reasoningItem(open.id, this.summary ? open.text : null, status);
    }
    this.output[open.index] = item;
    emit({ type: 'response.output_item.done', output_index: open.index, item });
  }

  private writeCall(emit: Emit, call: NonNullable<ChatCompletionChunk['choices'][number]['delta']['tool_calls']>[number]): void {
    const args = call.function?.arguments ?? '';
    let open = this.calls.get(call.index);
    if (!open) {
      this.closeText(emit);
      const index = this.output.length;
      open = { index, id: call.id ?? `call_${this.ctx.id}_${call.index}`, name: call.function?.name ?? '', args: '' };
      this.calls.set(call.index, open);
      const item = this.callItem(open, 'in_progress');
      this.output.push(item);
      emit({ type: 'response.output_item.added', output_index: index, item });
    }
    if (!args) return;
    open.args += args;
    // A custom tool's input is inside the JSON arguments: it goes out whole when the call closes.
    const current = this.output[open.index];
    if (current.type === 'function_call') {
      emit({ type: 'response.function_call_arguments.delta', item_id: itemIdOf(current), output_index: open.index, delta: args });
    }
  }

  /** At the finish: what is still open closes, the last item `incomplete` when the answer was cut short. */
  private closeAll(emit: Emit): void {
    const state = statusOf(this.finish);
    const count = this.output.length;
    if (this.text) this.closeText(emit, itemStatusAt(state, this.text.index, count));
    for (const open of [...this.calls.values()].sort((a, b) => a.index - b.index)) {
      const done = this.callItem(open, itemStatusAt(state, open.index, count));
      const at = { item_id: itemIdOf(done), output_index: open.index };
      if (done.type === 'custom_tool_call') {
        emit({ type: 'response.custom_tool_call_input.delta', ...at, delta: done.input });
        emit({ type: 'response.custom_tool_call_input.done', ...at, input: done.input });
      } else if (done.type === 'function_call') {
        emit({ type: 'response.function_call_arguments.done', ...at, arguments: done.arguments, name: done.name });
      }
      this.output[open.index] = done;
      emit({ type: 'response.output_item.done', output_index: open.index, item: done });
    }
    this.calls.clear();
  }

  private callItem(open: OpenCall, status: 'in_progress' | 'completed' | 'incomplete'): ResponsesOutputItem {
    return toolCallItem(
      this.ctx,
      open.index,
      { id: open.id, type: 'function', function: { name: open.name, arguments: open.args } },
      status,
    );
  }
}

const itemIdOf = (i: ResponsesOutputItem): string => ('id' in i && typeof i.id === 'string' ? i.id : '');

/** The stream form: chunks in, events out as they come, the closing events when the chunks end. */
export async function* chatChunksToResponsesEvents(
  chunks: AsyncIterable<ChatCompletionChunk>,
  ctx: ResponseContext,
): AsyncGenerator<Event> {
  const translator = new ChatToResponsesStream(ctx);
  try {
    for await (const chunk of chunks) yield* translator.push(chunk);
  } catch (err) {
    // Before the first event the call may still fail over or answer an HTTP error: only a stream
    // that began ends with response.failed. The error goes on, for the usage and the logs.
    if (translator.begun && GatewayError.is(err) && err.status !== 499) yield* translator.fail(err);
    throw err;
  }
  yield* translator.end();
}
