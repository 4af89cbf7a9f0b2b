/**
 * Measuring a native messages-format call from what Anthropic reports: message_start carries the
 * prompt (input, cache reads, cache writes), message_delta the cumulative output and marks the end.
 * Until then (a stream cut short) the produced text is counted (usage/usage-tally.ts).
 */
import {
  countAnthropicPromptTokens,
  type AnthropicMessagesRequest,
  type AnthropicStreamEvent,
  type AnthropicUsage,
} from '@unigate/contracts';
import { UsageTally } from '../usage/usage-tally';

type Reported = { [K in keyof AnthropicUsage]?: AnthropicUsage[K] | null };

export class AnthropicUsageTracker {
  readonly tally: UsageTally;
  private input?: number;
  private cacheRead = 0;
  private cacheCreation = 0;

  constructor(req: AnthropicMessagesRequest) {
    this.tally = new UsageTally(() => countAnthropicPromptTokens(req));
  }

  /** A whole message: its usage is final. */
  message(usage: Reported): void {
    this.observe(usage, true);
  }

  event(ev: AnthropicStreamEvent): void {
    if (ev.type === 'message_start') this.observe(ev.message.usage, false);
    else if (ev.type === 'message_delta') this.observe(ev.usage, true);
    else if (ev.type === 'content_block_delta') {
      const d = ev.delta as { text?: string; thinking?: string; partial_json?: string };
      this.tally.produce(d.text ?? d.thinking ?? d.partial_json);
    }
  }

  private observe(u: Reported | undefined, final: boolean): void {
    if (!u) return;
    if (typeof u.input_tokens === 'number') this.input = u.input_tokens;
    if (typeof u.cache_read_input_tokens === 'number') this.cacheRead = u.cache_read_input_tokens;
    if (typeof u.cache_creation_input_tokens === 'number') this.cacheCreation = u.cache_creation_input_tokens;
    this.tally.report(
      {
        // Anthropic's input_tokens leaves out cache reads and writes; ours counts every prompt token.
        ...(this.input !== undefined && { input_tokens: this.input + this.cacheRead + this.cacheCreation }),
        cached_input_tokens: this.cacheRead,
        cache_write_input_tokens: this.cacheCreation,
        ...(typeof u.output_tokens === 'number' && { output_tokens: u.output_tokens }),
      },
      final,
    );
  }
}
