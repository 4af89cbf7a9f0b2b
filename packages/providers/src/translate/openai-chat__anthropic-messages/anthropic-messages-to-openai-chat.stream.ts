/**
 * Anthropic stream events → chat-completion chunks, one event at a time (no buffering):
 *
 *   message_start                      → the role chunk `{role:'assistant', content:''}`
 *   content_block_start tool_use       → the first tool-call fragment (index, id, type, name, arguments '')
 *   text_delta / thinking_delta        → `content` / `reasoning_content` chunks
 *   input_json_delta                   → `arguments` fragments carrying only the index
 *   message_delta                      → the finish chunk (`delta: {}`, finish_reason)
 *   message_stop                       → the usage chunk (`choices: []`), as with include_usage
 *
 * Tool-call indexes count tool_use blocks (0, 1, ...), not Anthropic block indexes. The JSON-mode tool
 * streams as `content`. Pings, signatures and blocks with no chat form produce nothing. Usage starts
 * from message_start and takes message_delta's cumulative numbers.
 */
import { countTextTokens, errors, type AnthropicStreamEvent, type AnthropicUsage, type ChatCompletionChunk } from '@unigate/contracts';
import { anthropicStopToFinishReason } from './openai-chat__anthropic-messages.stop-reason';
import { anthropicToChatUsage } from './openai-chat__anthropic-messages.usage';
import { chatCompletionId } from './openai-chat__anthropic-messages.ids';

type Delta = ChatCompletionChunk['choices'][number]['delta'];
type Block = { kind: 'text' | 'thinking' | 'json' | 'none' } | { kind: 'tool'; toolIndex: number };

export interface AnthropicToChatStreamOptions {
  /** The model name the client asked for. */
  model: string;
  jsonTool?: string | null;
  /** Unix seconds, the same on every chunk; now when absent. */
  created?: number;
}

export class AnthropicToChatStream {
  private id = '';
  private readonly created: number;
  private readonly blocks = new Map<number, Block>();
  private tools = 0;
  private usage: AnthropicUsage = { input_tokens: 0, output_tokens: 0 };
  private thinking: string | null = null;
  private jsonAnswer = false;

  constructor(private readonly opts: AnthropicToChatStreamOptions) {
    this.created = opts.created ?? Math.floor(Date.now() / 1000);
  }

  /** The chunks one event turns into (often none). */
  push(event: AnthropicStreamEvent): ChatCompletionChunk[] {
    switch (event.type) {
      case 'message_start':
        this.id = chatCompletionId(event.message.id);
        this.usage = { ...event.message.usage };
        return [this.chunk({ role: 'assistant', content: '' })];
      case 'content_block_start':
        return this.startBlock(event.index, event.content_block);
      case 'content_block_delta':
        return this.delta(event.index, event.delta);
      case 'message_delta': {
        const u = event.usage;
        this.usage = {
          ...this.usage,
          output_tokens: u.output_tokens,
          ...(u.input_tokens != null && { input_tokens: u.input_tokens }),
          ...(u.cache_creation_input_tokens != null && { cache_creation_input_tokens: u.cache_creation_input_tokens }),
          ...(u.cache_read_input_tokens != null && { cache_read_input_tokens: u.cache_read_input_tokens }),
          ...(u.output_tokens_details != null && { output_tokens_details: u.output_tokens_details }),
        };
        let finish = anthropicStopToFinishReason(event.delta.stop_reason) ?? 'stop';
        if (finish === 'tool_calls' && this.jsonAnswer && this.tools === 0) finish = 'stop';
        return [this.chunk({}, finish)];
      }
      case 'message_stop':
        return [{ ...this.base(), choices: [], usage: this.chatUsage() }];
      case 'error':
        throw errors.upstream(502, event.error.message, false);
      default: // content_block_stop, ping
        return [];
    }
  }

  private startBlock(
    index: number,
    block: Extract<AnthropicStreamEvent, { type: 'content_block_start' }>['content_block'],
  ): ChatCompletionChunk[] {
    switch (block.type) {
      case 'text':
        this.blocks.set(index, { kind: 'text' });
        return block.text ? [this.chunk({ content: block.text })] : [];
      case 'thinking':
        this.blocks.set(index, { kind: 'thinking' });
        this.thinking ??= '';
        return block.thinking ? this.delta(index, { type: 'thinking_delta', thinking: block.thinking }) : [];
      case 'tool_use': {
        // A proxy may send the whole input up front instead of streaming it.
        const input =
          block.input && typeof block.input === 'object' && Object.keys(block.input).length > 0 ? JSON.stringify(block.input) : '';
        if (this.opts.jsonTool && block.name === this.opts.jsonTool) {
          this.blocks.set(index, { kind: 'json' });
          this.jsonAnswer = true;
          return input ? [this.chunk({ content: input })] : [];
        }
        const toolIndex = this.tools++;
        this.blocks.set(index, { kind: 'tool', toolIndex });
        return [
          this.chunk({
            tool_calls: [{ index: toolIndex, id: block.id, type: 'function', function: { name: block.name, arguments: input } }],
          }),
        ];
      }
      default:
        this.blocks.set(index, { kind: 'none' });
        return [];
    }
  }

  private delta(index: number, delta: Extract<AnthropicStreamEvent, { type: 'content_block_delta' }>['delta']): ChatCompletionChunk[] {
    const block = this.blocks.get(index);
    switch (delta.type) {
      case 'text_delta':
        return delta.text ? [this.chunk({ content: delta.text })] : [];
      case 'thinking_delta':
        if (!delta.thinking) return [];
        this.thinking = (this.thinking ?? '') + delta.thinking;
        return [this.chunk({ reasoning_content: delta.thinking })];
      case 'input_json_delta':
        if (!delta.partial_json) return [];
        if (block?.kind === 'json') return [this.chunk({ content: delta.partial_json })];
        if (block?.kind === 'tool')
          return [this.chunk({ tool_calls: [{ index: block.toolIndex, function: { arguments: delta.partial_json } }] })];
        return [];
      default: // signature_delta, citations_delta
        return [];
    }
  }

  private chatUsage() {
    return anthropicToChatUsage(this.usage, this.thinking !== null ? countTextTokens(this.thinking) : undefined);
  }

  private base() {
    return { id: this.id, object: 'chat.completion.chunk' as const, created: this.created, model: this.opts.model };
  }

  private chunk(delta: Delta, finish: ChatCompletionChunk['choices'][number]['finish_reason'] = null): ChatCompletionChunk {
    return { ...this.base(), choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] };
  }
}

/** The stream form of the above: events in, chunks out, as they come. */
export async function* anthropicEventsToChatChunks(
  events: AsyncIterable<AnthropicStreamEvent>,
  opts: AnthropicToChatStreamOptions,
): AsyncGenerator<ChatCompletionChunk> {
  const translator = new AnthropicToChatStream(opts);
  for await (const event of events) yield* translator.push(event);
}
