/**
 * An AnthropicAnswer in Anthropic's wire formats: the message body, or the SSE event sequence of
 * reference/anthropic.md — message_start (usage with output_tokens 1), then per block
 * content_block_start / deltas / content_block_stop with a ping after the first block start (thinking
 * ends with a signature_delta, tool_use starts with an empty input_json_delta as the real API does),
 * message_delta with the stop reason and output_tokens, message_stop.
 */
import type { AnthropicMessage, AnthropicResponseBlock, AnthropicStreamEvent } from '@unigate/contracts';
import { SeededRandom } from '../shared/seeded-random';
import type { SseEvent } from '../shared/sse-writer';
import type { AnthropicAnswer } from './anthropic-answer';

export interface MessageMeta {
  id: string;
  model: string;
}

export function toMessage(answer: AnthropicAnswer, meta: MessageMeta): AnthropicMessage {
  const content: AnthropicResponseBlock[] = [];
  if (answer.thinking) content.push({ type: 'thinking', thinking: answer.thinking.join(''), signature: answer.signature ?? '' });
  if (answer.text) content.push({ type: 'text', text: answer.text.join('') });
  if (answer.toolUse)
    content.push({
      type: 'tool_use',
      id: answer.toolUse.id,
      name: answer.toolUse.name,
      input: JSON.parse(answer.toolUse.inputPieces.join('') || '{}'),
    });
  return {
    id: meta.id,
    type: 'message',
    role: 'assistant',
    model: meta.model,
    content,
    stop_reason: answer.stopReason,
    stop_sequence: answer.stopSequence,
    usage: { ...answer.usage },
  };
}

/** The SSE events of a streamed answer; deltas are `counted` for the cut_after_chunks fault. */
export function* toStreamEvents(answer: AnthropicAnswer, meta: MessageMeta): Generator<SseEvent> {
  const ev = (e: AnthropicStreamEvent, counted = false): SseEvent => ({ event: e.type, data: JSON.stringify(e), counted });
  const rng = new SeededRandom(answer.seed ^ 0x85ebca6b);
  const start = toMessage({ ...answer, thinking: null, text: null, toolUse: null }, meta);
  yield ev({
    type: 'message_start',
    message: { ...start, content: [], stop_reason: null, stop_sequence: null, usage: { ...answer.usage, output_tokens: 1 } },
  });

  let index = 0;
  const open = function* (block: AnthropicResponseBlock): Generator<SseEvent> {
    yield ev({ type: 'content_block_start', index, content_block: block });
    if (index === 0) yield ev({ type: 'ping' });
  };
  if (answer.thinking) {
    yield* open({ type: 'thinking', thinking: '', signature: '' });
    for (const thinking of groups(answer.thinking, rng))
      yield ev({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking } }, true);
    yield ev({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: answer.signature ?? '' } });
    yield ev({ type: 'content_block_stop', index: index++ });
  }
  if (answer.text) {
    yield* open({ type: 'text', text: '' });
    for (const text of groups(answer.text, rng))
      yield ev({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } }, true);
    yield ev({ type: 'content_block_stop', index: index++ });
  }
  if (answer.toolUse) {
    yield* open({ type: 'tool_use', id: answer.toolUse.id, name: answer.toolUse.name, input: {} });
    yield ev({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '' } });
    for (const partial_json of groups(answer.toolUse.inputPieces, rng))
      yield ev({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } }, true);
    yield ev({ type: 'content_block_stop', index: index++ });
  }
  yield ev({
    type: 'message_delta',
    delta: { stop_reason: answer.stopReason, stop_sequence: answer.stopSequence },
    usage: { output_tokens: answer.usage.output_tokens },
  });
  yield ev({ type: 'message_stop' });
}

/** One to three token pieces per delta, like a real model's uneven deltas. */
function* groups(pieces: string[], rng: SeededRandom): Generator<string> {
  for (let i = 0; i < pieces.length;) {
    const n = rng.int(1, 3);
    yield pieces.slice(i, i + n).join('');
    i += n;
  }
}
