import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chatCompletionRequestSchema, parseOrThrow, type ChatCompletionRequest } from '@unigate/contracts';
import { toGeminiRequest } from './openai-chat__gemini-generate.request';
import { gatewayErrorOf } from '../../__test-support__/gateway-error';

const fixture = (name: string): unknown => JSON.parse(readFileSync(join(__dirname, '__fixtures__', name), 'utf8'));
const chat = (body: unknown): ChatCompletionRequest => parseOrThrow(chatCompletionRequestSchema, body);

const rejection = (body: unknown) => gatewayErrorOf(() => toGeminiRequest(chat(body)));

describe('chat → Gemini request', () => {
  it.each(['text', 'media', 'tools', 'structured'])('translates the %s fixture exactly', (name) => {
    const out = toGeminiRequest(chat(fixture(`request-${name}.chat.json`)));
    expect(JSON.parse(JSON.stringify(out))).toEqual(fixture(`request-${name}.gemini.json`));
  });

  it('maps every tool_choice form', () => {
    const tools = [{ type: 'function', function: { name: 'f' } }];
    const mode = (tool_choice: unknown) =>
      toGeminiRequest(chat({ model: 'm', messages: [{ role: 'user', content: 'x' }], tools, tool_choice })).toolConfig;
    expect(mode('auto')).toEqual({ functionCallingConfig: { mode: 'AUTO' } });
    expect(mode('none')).toEqual({ functionCallingConfig: { mode: 'NONE' } });
    expect(mode('required')).toEqual({ functionCallingConfig: { mode: 'ANY' } });
    expect(mode(undefined)).toBeUndefined();
  });

  it('turns thinking off for reasoning_effort none and shows thoughts otherwise', () => {
    const thinking = (reasoning_effort: string) =>
      toGeminiRequest(chat({ model: 'm', messages: [{ role: 'user', content: 'x' }], reasoning_effort })).generationConfig?.thinkingConfig;
    expect(thinking('none')).toEqual({ thinkingBudget: 0 });
    expect(thinking('low')).toEqual({ thinkingBudget: 1024, includeThoughts: true });
    expect(thinking('medium')).toEqual({ thinkingBudget: 8192, includeThoughts: true });
  });

  it('names the field it cannot translate', () => {
    const user = { role: 'user', content: 'x' };
    expect(rejection({ model: 'm', messages: [user], reasoning_effort: 'extreme' })).toMatchObject({
      status: 400,
      param: 'reasoning_effort',
    });
    expect(rejection({ model: 'm', messages: [user, { role: 'tool', tool_call_id: 'nope', content: 'r' }] })).toMatchObject({
      status: 400,
      param: 'messages[1].tool_call_id',
    });
    const badArgs = { role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '[1,2]' } }] };
    expect(rejection({ model: 'm', messages: [user, badArgs] })).toMatchObject({
      status: 400,
      param: 'messages[1].tool_calls[0].function.arguments',
    });
    const ftp = { role: 'user', content: [{ type: 'video_url', video_url: { url: 'ftp://host/clip.mp4' } }] };
    expect(rejection({ model: 'm', messages: [ftp] })).toMatchObject({ status: 400, param: 'messages[0].content[0]' });
    const junk = { role: 'user', content: [{ type: 'audio_url', audio_url: { url: 'not a url' } }] };
    expect(rejection({ model: 'm', messages: [junk] })).toMatchObject({ status: 400, param: 'messages[0].content[0]' });
  });

  it('refuses a request left without contents with a 400 of its own naming messages, instead of sending it', () => {
    const system = { role: 'system', content: 'Be brief' };
    for (const messages of [
      [system],
      [system, { role: 'user', content: '' }],
      [system, { role: 'user', content: [] }],
      [system, { role: 'user', content: [{ type: 'text', text: '' }] }],
      [{ role: 'assistant', content: '' }],
    ]) {
      expect(rejection({ model: 'm', messages })).toMatchObject({
        status: 400,
        code: 'invalid_value',
        param: 'messages',
        message: "Invalid 'messages': the model needs at least one user or assistant message with content besides the system instructions.",
      });
    }
  });

  it('leaves empty text blocks out (Gemini refuses a text part without text)', () => {
    const content = [
      { type: 'text', text: '' },
      { type: 'text', text: 'hi' },
    ];
    expect(toGeminiRequest(chat({ model: 'm', messages: [{ role: 'user', content }] })).contents).toEqual([
      { role: 'user', parts: [{ text: 'hi' }] },
    ]);
  });

  it('says a tool result answering no earlier call does not answer one, in words every client format shares', () => {
    expect(rejection({ model: 'm', messages: [{ role: 'tool', tool_call_id: 'nope', content: 'r' }] }).message).toBe(
      "Invalid 'messages[0].tool_call_id': 'nope' does not answer a tool call made earlier in the conversation.",
    );
  });

  it('uses the tool message name when no earlier call matches, and re-encodes a plain data: URL', () => {
    const out = toGeminiRequest(
      chat({
        model: 'm',
        messages: [
          { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/svg+xml,%3Csvg%2F%3E' } }] },
          { role: 'tool', tool_call_id: 'elsewhere', name: 'lookup', content: '42' },
        ],
      }),
    );
    expect(out.contents).toEqual([
      {
        role: 'user',
        parts: [
          { inlineData: { mimeType: 'image/svg+xml', data: Buffer.from('<svg/>').toString('base64') } },
          { functionResponse: { name: 'lookup', response: { output: 42 } } },
        ],
      },
    ]);
  });
});
