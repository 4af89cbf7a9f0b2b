/**
 * Measuring a native messages-format call from what Anthropic reports: message_start carries the
 * prompt (input, cache reads, cache writes and their split by ttl), message_delta the cumulative
 * output and marks the end.
 * Until then (a stream cut short) the produced text is counted (usage/usage-tally.ts).
 */
import {
  countAnthropicPromptTokens,
  promptUnits,
  type AnthropicMessagesRequest,
  type AnthropicStreamEvent,
  type AnthropicUsage,
  type Usage,
} from '@unigate/contracts';
import { UsageTally } from '../usage/usage-tally';

type Reported = { [K in keyof AnthropicUsage]?: AnthropicUsage[K] | null };

export class AnthropicUsageTracker {
  readonly tally: UsageTally;
  private input?: number;
  private cacheRead = 0;
  private cacheCreation = 0;
  private cacheCreation1h = 0;

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
    // Only message_start (or a whole message) splits the writes by ttl; message_delta leaves the split out.
    if (typeof u.cache_creation?.ephemeral_1h_input_tokens === 'number') this.cacheCreation1h = u.cache_creation.ephemeral_1h_input_tokens;
    this.tally.report(
      {
        // Anthropic's input_tokens leaves out cache reads and writes; ours counts every prompt token.
        ...(this.input !== undefined && { input_tokens: this.input + this.cacheRead + this.cacheCreation }),
        cached_input_tokens: this.cacheRead,
        cache_write_input_tokens: this.cacheCreation,
        cache_write_1h_input_tokens: this.cacheCreation1h,
        ...(typeof u.output_tokens === 'number' && { output_tokens: u.output_tokens }),
      },
      final,
    );
  }
}

/**
 * `usage` measured from the chat-completions translation of an Anthropic answer, with the one-hour
 * part of its cache writes that Anthropic reported (`cache_creation.ephemeral_1h_input_tokens`): chat
 * usage has no field for it, and those writes are priced apart.
 */
export function withOneHourWrites(usage: Usage, reported: Reported | null | undefined): Usage {
  const oneHour = reported?.cache_creation?.ephemeral_1h_input_tokens ?? 0;
  if (oneHour <= 0 || usage.input_tokens === undefined) return usage;
  return { ...usage, ...promptUnits(usage.input_tokens, usage.cached_input_tokens, usage.cache_write_input_tokens, oneHour) };
}
