/** Finish reasons of OpenAI-compatible vendors mapped onto OpenAI's own set. */
import type { FinishReason } from '@unigate/contracts';

const KNOWN: Record<string, FinishReason> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool_calls',
  content_filter: 'content_filter',
  function_call: 'function_call',
  // seen from compatible vendors
  eos: 'stop',
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  tool_call: 'tool_calls',
  tool_use: 'tool_calls',
  sensitive: 'content_filter',
};

export function mapOpenAiFinishReason(reason: string | null | undefined): FinishReason | null {
  if (reason === null || reason === undefined) return null;
  return KNOWN[reason] ?? 'stop';
}
