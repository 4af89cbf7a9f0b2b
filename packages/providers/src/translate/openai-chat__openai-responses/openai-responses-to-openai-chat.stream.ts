/**
 * Responses stream events → chat-completion chunks, one event at a time:
 *
 *   response.created                          → the role chunk `{role:'assistant', content:''}`
 *   response.output_text.delta                → `content`
 *   response.reasoning_summary_text.delta,
 *   response.reasoning_text.delta             → `reasoning_content`
 *   output_item.added (function/custom call)  → the first tool-call fragment (index, id, name)
 *   response.function_call_arguments.delta    → `arguments` fragments carrying only the index
 *   (a custom call's input)                   → one `{"input": ...}` fragment when it is done
 *   response.completed / .incomplete          → the finish chunk, then the usage chunk (`choices: []`)
 *   response.failed, error                    → a GatewayError
 *
 * Tool-call indexes count the calls (0, 1, ...), not output indexes. Other events produce nothing.
 */
import { errors, type ChatCompletionChunk, type ResponsesStreamEvent } from '@unigate/contracts';
import { chatUsage, finishReasonOf, toolCallOf } from './openai-responses-to-openai-chat.response';

type Delta = ChatCompletionChunk['choices'][number]['delta'];

export class ResponsesToChatStream {
  private id = '';
  private readonly created: number;
  /** output_index → tool-call index */
  private readonly calls = new Map<number, number>();

  constructor(private readonly opts: { model: string; created?: number }) {
    this.created = opts.created ?? Math.floor(Date.now() / 1000);
  }

  push(ev: ResponsesStreamEvent): ChatCompletionChunk[] {
    switch (ev.type) {
      case 'response.created':
        this.id = ev.response.id;
        return [this.chunk({ role: 'assistant', content: '' })];
      case 'response.output_text.delta':
        return ev.delta ? [this.chunk({ content: ev.delta })] : [];
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        return ev.delta ? [this.chunk({ reasoning_content: ev.delta })] : [];
      case 'response.output_item.added': {
        const call = toolCallOf(ev.item);
        if (!call) return [];
        const index = this.calls.size;
        this.calls.set(ev.output_index, index);
        return [
          this.chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }),
        ];
      }
      case 'response.function_call_arguments.delta': {
        const index = this.calls.get(ev.output_index);
        return index !== undefined && ev.delta ? [this.chunk({ tool_calls: [{ index, function: { arguments: ev.delta } }] })] : [];
      }
      case 'response.custom_tool_call_input.done': {
        const index = this.calls.get(ev.output_index);
        const args = JSON.stringify({ input: ev.input });
        return index !== undefined ? [this.chunk({ tool_calls: [{ index, function: { arguments: args } }] })] : [];
      }
      case 'response.completed':
      case 'response.incomplete': {
        const finish = finishReasonOf(ev.response, this.calls.size > 0);
        return [this.chunk({}, finish), { ...this.base(), choices: [], usage: chatUsage(ev.response.usage) }];
      }
      case 'response.failed':
        throw errors.upstream(502, ev.response.error?.message ?? 'upstream response failed', false);
      case 'error':
        throw errors.upstream(502, ev.message, false);
      default:
        return [];
    }
  }

  private base() {
    return { id: this.id, object: 'chat.completion.chunk' as const, created: this.created, model: this.opts.model };
  }

  private chunk(delta: Delta, finish: ChatCompletionChunk['choices'][number]['finish_reason'] = null): ChatCompletionChunk {
    return { ...this.base(), choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] };
  }
}

/** The stream form of the above: events in, chunks out, as they come. */
export async function* responsesEventsToChatChunks(
  events: AsyncIterable<ResponsesStreamEvent>,
  opts: { model: string; created?: number },
): AsyncGenerator<ChatCompletionChunk> {
  const translator = new ResponsesToChatStream(opts);
  for await (const ev of events) yield* translator.push(ev);
}
