import { countTextTokens, type ChatCompletionRequest } from '@unigate/contracts';
import { answerChat } from './openai-chat-answer';

const req = (extra: Partial<ChatCompletionRequest> = {}): ChatCompletionRequest => ({
  model: 'sim-chat',
  messages: [{ role: 'user', content: 'Explain tides.' }],
  ...extra,
});

describe('answerChat', () => {
  it('depends on the messages only, not on sampling parameters', () => {
    const a = answerChat(req());
    expect(answerChat(req({ temperature: 2, top_p: 0.1, seed: 9 })).content).toEqual(a.content);
    expect(answerChat(req({ messages: [{ role: 'user', content: 'Explain waves.' }] })).content).not.toEqual(a.content);
  });

  it('answers 20 to 60-odd tokens by default and counts them exactly', () => {
    for (const topic of ['a', 'b', 'c', 'd', 'e']) {
      const a = answerChat(req({ messages: [{ role: 'user', content: topic }] }));
      const text = a.content!.join('');
      expect(a.usage.completion_tokens).toBe(countTextTokens(text));
      expect(a.usage.completion_tokens).toBeGreaterThanOrEqual(20);
      expect(a.usage.completion_tokens).toBeLessThan(80);
      expect(a.finishReason).toBe('stop');
    }
  });

  it('caps at max_completion_tokens before max_tokens', () => {
    const a = answerChat(req({ max_tokens: 50, max_completion_tokens: 4 }));
    expect(a.content).toHaveLength(4);
    expect(a.finishReason).toBe('length');
  });

  it('thinks for reasoning models, within max_tokens, reporting reasoning tokens', () => {
    const plain = answerChat(req());
    const thinking = answerChat(req({ model: 'sim-reasoner' }));
    expect(plain.reasoning).toBeNull();
    expect(thinking.reasoning!.length).toBeGreaterThanOrEqual(15);
    expect(thinking.content).toEqual(plain.content);
    expect(thinking.usage.completion_tokens_details?.reasoning_tokens).toBe(thinking.reasoning!.length);
    expect(thinking.usage.completion_tokens).toBe(thinking.reasoning!.length + plain.usage.completion_tokens);

    const capped = answerChat(req({ reasoning_effort: 'max', max_tokens: 10 }));
    expect(capped.reasoning).toHaveLength(10);
    expect(capped.content).toEqual([]);
    expect(capped.finishReason).toBe('length');
    expect(capped.usage.completion_tokens).toBe(10);
  });

  it('rejects a tool_choice naming a tool that is not offered', () => {
    expect(() =>
      answerChat(
        req({
          tools: [{ type: 'function', function: { name: 'a' } }],
          tool_choice: { type: 'function', function: { name: 'b' } },
        }),
      ),
    ).toThrow(expect.objectContaining({ status: 400, param: 'tool_choice' }));
  });
});

describe('answerChat candidates and thinking switches', () => {
  it('keeps candidate 0 as the plain answer and varies the others', () => {
    const plain = answerChat(req());
    expect(answerChat(req(), { candidate: 0 }).content).toEqual(plain.content);
    expect(answerChat(req(), { candidate: 1 }).content).not.toEqual(plain.content);
    expect(answerChat(req(), { candidate: 1 }).content).toEqual(answerChat(req(), { candidate: 1 }).content);
  });

  it('thinks when told to, whatever the model name', () => {
    expect(answerChat(req(), { thinks: true }).reasoning!.length).toBeGreaterThan(0);
    expect(answerChat(req({ model: 'sim-reasoner' }), { thinks: false }).reasoning).toBeNull();
  });
});
