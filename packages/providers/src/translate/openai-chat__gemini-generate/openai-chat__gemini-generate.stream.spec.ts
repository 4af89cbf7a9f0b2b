import { join } from 'node:path';
import type { ChatCompletionChunk, ChatCompletionRequest } from '@unigate/contracts';
import { fixtureChunks } from '../../__test-support__/replay-server';
import { geminiResponseSchema } from '../../gemini-generate/gemini-generate-schemas';
import { GeminiToChatStream } from './openai-chat__gemini-generate.stream';

const req: ChatCompletionRequest = { model: 'gamma-2.5-pro', messages: [{ role: 'user', content: 'Say hello' }] };

function replay(name: string): { chunks: ChatCompletionChunk[]; translator: GeminiToChatStream } {
  const translator = new GeminiToChatStream(req);
  const chunks: ChatCompletionChunk[] = [];
  for (const line of fixtureChunks(join(__dirname, '../../gemini-generate'), name)) {
    chunks.push(...translator.push(geminiResponseSchema.parse(JSON.parse(line))));
  }
  return { chunks, translator };
}

describe('Gemini stream → chat.completion.chunk', () => {
  it('emits content deltas, the role first, then a finish chunk and the usage chunk', () => {
    const { chunks, translator } = replay('text');
    expect(translator.finished).toBe(true);
    expect(chunks.map((c) => c.choices[0].delta)).toEqual([
      { content: 'Hello', role: 'assistant' },
      { content: ', world!' },
      { content: ' ✓' },
      {},
    ]);
    expect(chunks[3].choices[0].finish_reason).toBe('stop');
    expect(chunks.every((c) => c.id === 'chatcmpl-str-1' && c.object === 'chat.completion.chunk' && c.model === 'gamma-2.5-pro')).toBe(
      true,
    );
    expect(new Set(chunks.map((c) => c.created)).size).toBe(1);
    expect(translator.usageChunk()).toMatchObject({
      id: 'chatcmpl-str-1',
      choices: [],
      usage: { prompt_tokens: 8, completion_tokens: 22, total_tokens: 30, completion_tokens_details: { reasoning_tokens: 17 } },
    });
  });

  it('streams thoughts as reasoning_content before the content, with cached tokens in the usage', () => {
    const { chunks, translator } = replay('thinking');
    const deltas = chunks.map((c) => c.choices[0].delta);
    expect(deltas.map((d) => d.reasoning_content ?? '').join('')).toBe('**Weighing the question**\n\nThe user asks for the capital.');
    expect(deltas.map((d) => d.content ?? '').join('')).toBe('Paris is the capital of France.');
    expect(deltas[0].role).toBe('assistant');
    expect(translator.usageChunk()?.usage).toEqual({
      prompt_tokens: 2100,
      completion_tokens: 52,
      total_tokens: 2152,
      prompt_tokens_details: { cached_tokens: 2048 },
      completion_tokens_details: { reasoning_tokens: 45 },
    });
  });

  it('sends each whole function call as one fragment with id, type, name and arguments', () => {
    const { chunks } = replay('tool-call');
    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: 'Let me check.' });
    expect(chunks[1].choices[0].delta.tool_calls).toEqual([
      { index: 0, id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      {
        index: 1,
        id: expect.stringMatching(/^call_/),
        type: 'function',
        function: { name: 'get_time', arguments: '{"zone":"Europe/Paris"}' },
      },
    ]);
    expect(chunks[2].choices[0]).toMatchObject({ delta: {}, finish_reason: 'tool_calls' });
  });

  it('is not finished when the upstream stops before a finish reason', () => {
    const { chunks, translator } = replay('cut');
    expect(chunks).toHaveLength(2);
    expect(translator.finished).toBe(false);
  });

  it('takes usage that arrives after the finish chunk, and leaves the count to the measurement when none ever comes', () => {
    expect(replay('usage-after-finish').translator.usageChunk()?.usage).toEqual({
      prompt_tokens: 9,
      completion_tokens: 2,
      total_tokens: 11,
    });
    const silent = new GeminiToChatStream(req);
    silent.push(geminiResponseSchema.parse({ candidates: [{ content: { parts: [{ text: 'Two words' }] }, finishReason: 'STOP' }] }));
    // usage/chat-usage.ts counts what was produced and adds the usage chunk (chat-usage.spec.ts).
    expect(silent.usageChunk()).toBeUndefined();
    expect(silent.finished).toBe(true);
  });

  it('finishes a blocked prompt with content_filter', () => {
    const t = new GeminiToChatStream(req);
    const chunks = t.push(geminiResponseSchema.parse({ promptFeedback: { blockReason: 'SAFETY' } }));
    expect(chunks.map((c) => c.choices[0].finish_reason)).toEqual([null, 'content_filter']);
    expect(t.finished).toBe(true);
  });
});
