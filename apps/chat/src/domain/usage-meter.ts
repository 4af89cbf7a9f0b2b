/**
 * Measures what one chat call produced, so billing charges exactly that: the upstream's own usage
 * numbers when it reported them, otherwise (client disconnect, upstream cut mid-stream) a count of
 * the tokens that actually went out.
 */
import {
  countPromptTokens,
  countTextTokens,
  type ChatCompletionChunk,
  type ChatCompletionRequest,
  type ChatUsage,
  type TokenUnits,
  unitsFromChatUsage,
} from '@unigate/contracts';

export class UsageMeter {
  private reported: ChatUsage | null = null;
  private producedText = '';
  private producedChunks = 0;

  constructor(private readonly request: ChatCompletionRequest) {}

  /** True once anything billable came from the upstream. */
  get producedAnything(): boolean {
    return this.reported !== null || this.producedChunks > 0;
  }

  observeChunk(chunk: ChatCompletionChunk): void {
    if (chunk.usage) this.reported = chunk.usage;
    for (const choice of chunk.choices) {
      const d = choice.delta;
      let piece = '';
      if (d.content) piece += d.content;
      if (d.reasoning_content) piece += d.reasoning_content;
      for (const tc of d.tool_calls ?? []) piece += (tc.function?.name ?? '') + (tc.function?.arguments ?? '');
      if (piece) {
        this.producedText += piece;
        this.producedChunks++;
      }
    }
  }

  observeUsage(usage: ChatUsage): void {
    this.reported = usage;
  }

  units(): TokenUnits {
    if (this.reported) return unitsFromChatUsage(this.reported);
    if (!this.producedAnything) return { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0 };
    return {
      input_tokens: countPromptTokens(this.request.messages),
      cached_input_tokens: 0,
      output_tokens: countTextTokens(this.producedText),
    };
  }
}
