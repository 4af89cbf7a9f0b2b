/**
 * Chat-completion chunks → Anthropic's exact SSE event sequence (reference/anthropic.md), one chunk
 * at a time:
 *
 *   message_start                      (on the first chunk; usage input_tokens + output_tokens 1)
 *   content_block_start  index 0       (thinking for reasoning_content, text for content,
 *   ping                                tool_use for each tool call; a new kind closes the open block)
 *   content_block_delta  ...           (thinking_delta / text_delta / input_json_delta)
 *   content_block_stop   index 0
 *   ...                                (the next blocks, indexes 1, 2, ...)
 *   message_delta                      (stop_reason, and the final usage)
 *   message_stop
 *
 * Usage: a chat upstream reports usage only at the end, but message_start must carry input_tokens
 * (clients such as Claude Code read the prompt size there; peers send 0 and break context accounting).
 * So message_start carries the caller's estimate (`inputTokens`, normally countPromptTokens of the
 * translated chat messages), and message_delta carries the real numbers — input_tokens,
 * cache_read_input_tokens and output_tokens, cumulative as Anthropic's are — which is what the
 * Anthropic SDK keeps. Without a usage chunk, message_delta repeats the estimate and counts the
 * produced text as output.
 *
 * A tool-call fragment for a block already closed (a vendor interleaving parallel calls) is still sent
 * as an input_json_delta at that block's index: clients assemble blocks by index.
 */
import {
  countTextTokens,
  type AnthropicStreamEvent,
  type ChatCompletionChunk,
  type ChatUsage,
  type FinishReason,
} from '@unigate/contracts';
import { anthropicMessageId } from './openai-chat__anthropic-messages.ids';
import { finishReasonToAnthropicStop } from './openai-chat__anthropic-messages.stop-reason';
import { chatToAnthropicUsage } from './openai-chat__anthropic-messages.usage';

type BlockKind = 'thinking' | 'text' | 'tool';
type BlockStart = Extract<AnthropicStreamEvent, { type: 'content_block_start' }>['content_block'];
type BlockDelta = Extract<AnthropicStreamEvent, { type: 'content_block_delta' }>['delta'];

export interface ChatToAnthropicStreamOptions {
  /** The model name the client asked for. */
  model: string;
  /** Estimated prompt tokens for message_start (see above); must not be 0 for a non-empty prompt. */
  inputTokens: number;
  /** The message id; the first chunk's id when absent. */
  id?: string;
}

export class ChatToAnthropicStream {
  private started = false;
  private messageId = '';
  private pinged = false;
  private nextIndex = 0;
  private open: { index: number; kind: BlockKind; toolIndex?: number } | null = null;
  /** chat tool_call index → Anthropic block index */
  private readonly toolBlocks = new Map<number, number>();
  private finish: FinishReason | null = null;
  private usage: ChatUsage | null = null;
  private produced = '';

  constructor(private readonly opts: ChatToAnthropicStreamOptions) {}

  push(chunk: ChatCompletionChunk): AnthropicStreamEvent[] {
    const out: AnthropicStreamEvent[] = [];
    if (!this.started) out.push(this.messageStart(chunk));
    if (chunk.usage) this.usage = chunk.usage;
    const choice = chunk.choices.find((c) => c.index === 0);
    if (!choice) return out;
    const d = choice.delta;
    if (d.reasoning_content) this.write(out, 'thinking', { type: 'thinking_delta', thinking: d.reasoning_content });
    if (d.content) this.write(out, 'text', { type: 'text_delta', text: d.content });
    for (const call of d.tool_calls ?? []) {
      const args = call.function?.arguments ?? '';
      this.produced += (call.function?.name ?? '') + args;
      const known = this.toolBlocks.get(call.index);
      if (known === undefined) {
        this.closeOpen(out);
        const index = this.openBlock(
          out,
          'tool',
          { type: 'tool_use', id: call.id ?? `toolu_${this.messageId}_${call.index}`, name: call.function?.name ?? '', input: {} },
          call.index,
        );
        this.toolBlocks.set(call.index, index);
        if (args) out.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: args } });
      } else if (args) {
        out.push({ type: 'content_block_delta', index: known, delta: { type: 'input_json_delta', partial_json: args } });
      }
    }
    if (choice.finish_reason) {
      this.finish = choice.finish_reason;
      this.closeOpen(out);
    }
    return out;
  }

  /** The closing events, once the chunks ended normally. */
  end(): AnthropicStreamEvent[] {
    const out: AnthropicStreamEvent[] = [];
    if (!this.started) out.push(this.messageStart(undefined));
    this.closeOpen(out);
    const usage = this.usage
      ? chatToAnthropicUsage(this.usage)
      : {
          input_tokens: this.opts.inputTokens,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          output_tokens: countTextTokens(this.produced),
        };
    out.push({ type: 'message_delta', delta: { stop_reason: finishReasonToAnthropicStop(this.finish), stop_sequence: null }, usage });
    out.push({ type: 'message_stop' });
    return out;
  }

  private messageStart(chunk: ChatCompletionChunk | undefined): AnthropicStreamEvent {
    this.started = true;
    this.messageId = this.opts.id ?? (chunk?.id ? anthropicMessageId(chunk.id) : `msg_${Date.now().toString(36)}`);
    const reported = chunk?.usage ? chatToAnthropicUsage(chunk.usage) : undefined;
    return {
      type: 'message_start',
      message: {
        id: this.messageId,
        type: 'message',
        role: 'assistant',
        model: this.opts.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: reported?.input_tokens ?? this.opts.inputTokens,
          cache_creation_input_tokens: reported?.cache_creation_input_tokens ?? 0,
          cache_read_input_tokens: reported?.cache_read_input_tokens ?? 0,
          output_tokens: 1,
        },
      },
    };
  }

  /** A delta for a block of `kind`, opening it (and closing another kind) first when needed. */
  private write(out: AnthropicStreamEvent[], kind: 'thinking' | 'text', delta: BlockDelta): void {
    this.produced += delta.type === 'thinking_delta' ? delta.thinking : delta.type === 'text_delta' ? delta.text : '';
    if (this.open?.kind !== kind) {
      this.closeOpen(out);
      this.openBlock(out, kind, kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' });
    }
    out.push({ type: 'content_block_delta', index: this.open!.index, delta });
  }

  private openBlock(out: AnthropicStreamEvent[], kind: BlockKind, block: BlockStart, toolIndex?: number): number {
    const index = this.nextIndex++;
    this.open = { index, kind, toolIndex };
    out.push({ type: 'content_block_start', index, content_block: block });
    if (!this.pinged) {
      this.pinged = true;
      out.push({ type: 'ping' });
    }
    return index;
  }

  private closeOpen(out: AnthropicStreamEvent[]): void {
    if (!this.open) return;
    out.push({ type: 'content_block_stop', index: this.open.index });
    this.open = null;
  }
}

/** The stream form: chunks in, events out as they come, the closing events when the chunks end. */
export async function* chatChunksToAnthropicEvents(
  chunks: AsyncIterable<ChatCompletionChunk>,
  opts: ChatToAnthropicStreamOptions,
): AsyncGenerator<AnthropicStreamEvent> {
  const translator = new ChatToAnthropicStream(opts);
  for await (const chunk of chunks) yield* translator.push(chunk);
  yield* translator.end();
}
