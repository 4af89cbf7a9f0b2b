/** Measuring a native messages call from Anthropic's own usage. */
import type { AnthropicMessagesRequest, AnthropicStreamEvent } from '@unigate/contracts';
import { AnthropicUsageTracker } from './anthropic-messages-usage';

const req: AnthropicMessagesRequest = { model: 'sigma-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] };
const usage = {
  input_tokens: 10,
  cache_creation_input_tokens: 3000,
  cache_read_input_tokens: 500,
  cache_creation: { ephemeral_5m_input_tokens: 1000, ephemeral_1h_input_tokens: 2000 },
  output_tokens: 7,
};
// Every prompt token: plain input, reads and writes (Anthropic's input_tokens counts only the first).
const measured = { input_tokens: 3510, cached_input_tokens: 500, cache_write_input_tokens: 3000, cache_write_1h_input_tokens: 2000 };

describe('AnthropicUsageTracker', () => {
  it('takes the one-hour part of the cache writes from cache_creation', () => {
    const tracker = new AnthropicUsageTracker(req);
    tracker.message(usage);
    expect(tracker.tally.usage()).toEqual({ ...measured, output_tokens: 7 });
  });

  it('keeps the split message_start reported when message_delta, which has none, updates the counts', () => {
    const tracker = new AnthropicUsageTracker(req);
    const message = { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null, stop_sequence: null };
    const events = [
      { type: 'message_start', message: { ...message, usage: { ...usage, output_tokens: 1 } } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } },
      {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { input_tokens: 10, cache_creation_input_tokens: 3000, cache_read_input_tokens: 500, output_tokens: 7 },
      },
    ] as AnthropicStreamEvent[];
    for (const ev of events) tracker.event(ev);
    expect(tracker.tally.usage()).toEqual({ ...measured, output_tokens: 7 });
  });

  it('records no one-hour writes when Anthropic reports none', () => {
    const tracker = new AnthropicUsageTracker(req);
    tracker.message({ ...usage, cache_creation: { ephemeral_5m_input_tokens: 3000, ephemeral_1h_input_tokens: 0 } });
    expect(tracker.tally.usage()).not.toHaveProperty('cache_write_1h_input_tokens');
    tracker.message({ input_tokens: 10, output_tokens: 7 });
    expect(tracker.tally.usage()).not.toHaveProperty('cache_write_1h_input_tokens');
  });
});
