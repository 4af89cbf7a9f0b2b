import { join } from 'node:path';
import type { ChatCompletionRequest } from '@unigate/contracts';
import { fixtureJson } from '../../__test-support__/replay-server';
import { geminiResponseSchema } from '../../gemini-generate/gemini-generate-schemas';
import { measureChatResponse } from '../../usage/chat-usage';
import { toChatResponse } from './openai-chat__gemini-generate.response';

const recorded = (name: string) => geminiResponseSchema.parse(fixtureJson(join(__dirname, '../../gemini-generate'), name));
const req: ChatCompletionRequest = { model: 'gamma-2.5-flash', messages: [{ role: 'user', content: 'Say hello' }] };

describe('Gemini response → chat.completion', () => {
  it('maps text, finish reason and usage, counting thoughts as completion tokens', () => {
    const res = toChatResponse(recorded('text'), req);
    expect(res).toMatchObject({ id: 'chatcmpl-kLr0aPqPCJ2Sz7IP3NenyQg', object: 'chat.completion', model: 'gamma-2.5-flash' });
    expect(Number.isInteger(res.created)).toBe(true);
    expect(res.choices).toEqual([
      { index: 0, message: { role: 'assistant', content: 'Hello, world!' }, finish_reason: 'stop', logprobs: null },
    ]);
    expect(res.usage).toEqual({
      prompt_tokens: 8,
      completion_tokens: 32,
      total_tokens: 40,
      completion_tokens_details: { reasoning_tokens: 28 },
    });
  });

  it('puts thought parts in reasoning_content and reports cached prompt tokens', () => {
    const res = toChatResponse(recorded('thinking'), req);
    expect(res.choices[0].message).toEqual({
      role: 'assistant',
      content: 'Paris is the capital of France.',
      reasoning_content: '**Weighing the question**\n\nThe user asks for the capital of France.',
    });
    expect(res.usage).toEqual({
      prompt_tokens: 2100,
      completion_tokens: 52,
      total_tokens: 2152,
      prompt_tokens_details: { cached_tokens: 2048 },
      completion_tokens_details: { reasoning_tokens: 45 },
    });
  });

  it('turns function calls into tool_calls with ids and JSON arguments, finish_reason tool_calls', () => {
    const res = toChatResponse(recorded('tool-call'), req);
    const [choice] = res.choices;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    expect(choice.message.tool_calls).toEqual([
      {
        id: expect.stringMatching(/^call_[0-9a-f]{24}$/),
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' },
      },
      { id: 'fc-77', type: 'function', function: { name: 'get_time', arguments: '{}' } },
    ]);
  });

  it('maps each candidate to a choice and the filter reasons to content_filter', () => {
    const res = toChatResponse(recorded('two-candidates'), { ...req, n: 3 });
    expect(res.choices.map((c) => [c.index, c.message.content, c.finish_reason])).toEqual([
      [0, 'First.', 'stop'],
      [1, 'Second, cut', 'length'],
      [2, '', 'content_filter'],
    ]);
    expect(res.id).toMatch(/^chatcmpl-[0-9a-f]{24}$/);
  });

  it('answers a blocked prompt with one content_filter choice', () => {
    const res = toChatResponse(recorded('blocked'), req);
    expect(res.choices).toEqual([
      { index: 0, message: { role: 'assistant', content: null }, finish_reason: 'content_filter', logprobs: null },
    ]);
    expect(res.usage).toEqual({ prompt_tokens: 7, completion_tokens: 0, total_tokens: 7 });
  });

  it('leaves usage the upstream left out to the measurement, which counts it', () => {
    const res = toChatResponse(recorded('no-usage'), req);
    expect(res.usage).toBeUndefined();
    // 3 reply priming + 3 per message + "Say hello" (2); "Two words" (2)
    expect(measureChatResponse(res, req).value.usage).toEqual({ prompt_tokens: 8, completion_tokens: 2, total_tokens: 10 });
  });
});
