/**
 * An upstream's answer as we return it: the message keeps the upstream's fields in their order (unknown
 * ones too), nulls that vendors send for absent reasoning and tool calls are left out, and role,
 * content and refusal are always there.
 */
import type { ChatCompletionRequest } from '@unigate/contracts';
import { toChatResponse } from './openai-chat-response';
import type { UpstreamCompletion } from './openai-chat-schemas';

const request = { model: 'alias-model', messages: [{ role: 'user', content: 'hi' }] } as ChatCompletionRequest;
const answer = (message: Record<string, unknown>): UpstreamCompletion =>
  ({ id: 'chatcmpl-1', created: 1, model: 'm', choices: [{ index: 0, message, finish_reason: 'stop' }] }) as UpstreamCompletion;
const messageOf = (message: Record<string, unknown>) => toChatResponse(answer(message), request).choices[0].message;

describe('toChatResponse', () => {
  it("keeps the message's fields in the upstream's order and leaves out null reasoning_content and tool_calls", () => {
    const message = messageOf({
      content: 'Hello',
      reasoning_content: null,
      annotations: [],
      role: 'assistant',
      tool_calls: null,
      refusal: null,
    });
    expect(Object.keys(message)).toEqual(['content', 'annotations', 'role', 'refusal']);
    expect(message).toEqual({ content: 'Hello', annotations: [], role: 'assistant', refusal: null });
  });

  it('types tool calls as functions where they stand and keeps reasoning_content', () => {
    const call = { id: 'call_1', function: { name: 'get_weather', arguments: '{}' } };
    const message = messageOf({ role: 'assistant', reasoning_content: 'thinking', tool_calls: [call], content: null });
    expect(Object.keys(message)).toEqual(['role', 'reasoning_content', 'tool_calls', 'content', 'refusal']);
    expect(message.tool_calls).toEqual([{ ...call, type: 'function' }]);
    expect(message.reasoning_content).toBe('thinking');
  });

  it('fills in what a compatible vendor left out: the role, a null content and a null refusal', () => {
    const message = messageOf({ role: null, extra: 1 });
    expect(Object.keys(message)).toEqual(['role', 'extra', 'content', 'refusal']);
    expect(message).toEqual({ role: 'assistant', extra: 1, content: null, refusal: null });
  });
});
