/**
 * Measures a messages-format call from what the upstream reported (message_start and message_delta
 * usage, or the whole message's usage), falling back to counting the produced text when the stream
 * was cut before the final usage arrived.
 */
import {
  countPromptTokens,
  countTextTokens,
  type AnthropicMessage,
  type AnthropicStreamEvent,
  type AnthropicUsage,
  type ChatMessage,
  type TokenUnits,
} from '@unigate/contracts';
import type { Metered } from './usage-reporting';

/** message_start/message_delta usage: every field optional, nulls allowed. */
type ReportedUsage = { [K in keyof AnthropicUsage]?: AnthropicUsage[K] | null };

export class MessagesUsageMeter implements Metered {
  private input: number | null = null;
  private cacheRead = 0;
  private cacheCreation = 0;
  private output: number | null = null;
  private finished = false;
  private producedText = '';
  private events = 0;

  /** `promptMessages`: the request as chat messages, for the estimate when nothing was reported. */
  constructor(private readonly promptMessages: () => ChatMessage[]) {}

  get producedAnything(): boolean {
    return this.finished || this.producedText.length > 0;
  }

  observeMessage(msg: AnthropicMessage): void {
    this.observeUsage(msg.usage);
    this.finished = true;
  }

  observeEvent(ev: AnthropicStreamEvent): void {
    this.events++;
    if (ev.type === 'message_start') this.observeUsage(ev.message.usage);
    else if (ev.type === 'message_delta') {
      this.observeUsage(ev.usage);
      this.finished = true;
    } else if (ev.type === 'content_block_delta') {
      const d = ev.delta as { text?: string; thinking?: string; partial_json?: string };
      this.producedText += d.text ?? d.thinking ?? d.partial_json ?? '';
    }
  }

  units(): TokenUnits {
    const input = this.input ?? (this.producedAnything ? countPromptTokens(this.promptMessages()) : 0);
    // Once message_delta came, its output count is final; before that only what streamed out counts.
    const output = this.finished && this.output !== null ? this.output : countTextTokens(this.producedText);
    return {
      input_tokens: input + this.cacheRead + this.cacheCreation,
      cached_input_tokens: this.cacheRead,
      output_tokens: output,
    };
  }

  private observeUsage(u: ReportedUsage | undefined): void {
    if (!u) return;
    if (typeof u.input_tokens === 'number') this.input = u.input_tokens;
    if (typeof u.cache_read_input_tokens === 'number') this.cacheRead = u.cache_read_input_tokens;
    if (typeof u.cache_creation_input_tokens === 'number') this.cacheCreation = u.cache_creation_input_tokens;
    if (typeof u.output_tokens === 'number') this.output = u.output_tokens;
  }
}
