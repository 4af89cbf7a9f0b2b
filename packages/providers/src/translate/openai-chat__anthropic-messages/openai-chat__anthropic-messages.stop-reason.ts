/** Why the answer ended, in both directions between chat-completions and Anthropic messages. */
import type { AnthropicStopReason, FinishReason } from '@unigate/contracts';

/**
 * Anthropic → chat. `pause_turn` (a server tool paused a long turn) is a normal end of this reply;
 * `model_context_window_exceeded` ran out of room like `max_tokens`; unknown future values are ends.
 */
export function anthropicStopToFinishReason(stop: string | null | undefined): FinishReason | null {
  switch (stop) {
    case null:
    case undefined:
      return null;
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default: // end_turn, stop_sequence, pause_turn
      return 'stop';
  }
}

/** Chat → Anthropic. OpenAI does not say which stop sequence matched, so `stop` is always `end_turn`. */
export function finishReasonToAnthropicStop(finish: FinishReason | null | undefined): AnthropicStopReason {
  switch (finish) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    default:
      return 'end_turn';
  }
}
