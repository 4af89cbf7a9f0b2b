/**
 * A 400 about a translated request names the client's own field: the Responses and messages
 * translations record where each chat field came from, and the chat adapters' refusals (Gemini's,
 * Anthropic's) are renamed through that record — never left naming a chat field the client did not send.
 */
import {
  anthropicMessagesRequestSchema,
  GatewayError,
  parseOrThrow,
  responsesRequestSchema,
  type Channel,
  type ChatCompletionChunk,
  type ChatCompletionRequest,
} from '@unigate/contracts';
import type { MeasuredStream } from '../adapter';
import type { ChatProvider } from '../types';
import { ClientPaths } from './client-paths';
import { anthropicToChatRequest } from './openai-chat__anthropic-messages/anthropic-messages-to-openai-chat.request';
import { chatToAnthropicRequest } from './openai-chat__anthropic-messages/openai-chat-to-anthropic-messages.request';
import { toGeminiRequest } from './openai-chat__gemini-generate/openai-chat__gemini-generate.request';
import { responsesToChatRequest } from './openai-chat__openai-responses/openai-responses-to-openai-chat.request';
import { gatewayErrorOf } from '../__test-support__/gateway-error';

/** The two translations from chat that refuse what their protocol cannot carry. */
const UPSTREAMS: Record<string, (chat: ChatCompletionRequest) => unknown> = {
  gemini: (chat) => toGeminiRequest(chat),
  anthropic: (chat) => chatToAnthropicRequest(chat, { model: 'up' }),
};

const refusal = gatewayErrorOf;

/** The refusal of a Responses request, translated to chat and on to `upstream`, as its client gets it. */
function responsesRefusal(body: unknown, upstream: string): GatewayError {
  const paths = new ClientPaths();
  const { body: chat } = responsesToChatRequest(parseOrThrow(responsesRequestSchema, body), { paths });
  return paths.rename(refusal(() => UPSTREAMS[upstream](chat))) as GatewayError;
}

function messagesRefusal(body: unknown, upstream: string): GatewayError {
  const paths = new ClientPaths();
  const chat = anthropicToChatRequest(parseOrThrow(anthropicMessagesRequestSchema, body), { paths });
  return paths.rename(refusal(() => UPSTREAMS[upstream](chat))) as GatewayError;
}

const user = { role: 'user', content: 'hi' };
const EMPTY = 'the model needs at least one user or assistant message with content besides the system instructions.';

describe('a Responses request refused after translation names the client’s field', () => {
  it.each(['gemini', 'anthropic'])(
    '%s: arguments that are not a JSON object → input[i].arguments (or a custom call’s input)',
    (upstream) => {
      const input = [user, { type: 'function_call', call_id: 'c1', name: 'f', arguments: 'not json' }];
      expect(
        responsesRefusal({ model: 'm', input: [...input, { type: 'function_call_output', call_id: 'c1', output: 'x' }] }, upstream),
      ).toMatchObject({
        status: 400,
        param: 'input[1].arguments',
        message: expect.stringMatching(/^Invalid 'input\[1\]\.arguments': tool call arguments must be a JSON object/),
      });
      // A second call joins the same chat message: still its own item.
      const second = { type: 'function_call', call_id: 'c2', name: 'g', arguments: '[1]' };
      expect(responsesRefusal({ model: 'm', input: [user, { ...input[1], arguments: '{}' }, second] }, upstream)).toMatchObject({
        param: 'input[2].arguments',
      });
    },
  );

  it('gemini: a call_id no earlier call has → input[i].call_id', () => {
    const err = responsesRefusal(
      { model: 'm', instructions: 'Be brief', input: [user, { type: 'function_call_output', call_id: 'nope', output: 'x' }] },
      'gemini',
    );
    expect(err).toMatchObject({
      param: 'input[1].call_id',
      message: "Invalid 'input[1].call_id': 'nope' does not answer a tool call made earlier in the conversation.",
    });
  });

  it('an image URL the model cannot fetch → the part, or its image_url', () => {
    const input = [
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'look' },
          { type: 'input_image', image_url: 'ftp://x/y.png' },
        ],
      },
    ];
    expect(responsesRefusal({ model: 'm', input }, 'anthropic')).toMatchObject({
      param: 'input[0].content[1].image_url',
      message: expect.stringMatching(/^Invalid 'input\[0\]\.content\[1\]\.image_url': an image must be an http\(s\) URL/),
    });
    expect(responsesRefusal({ model: 'm', input }, 'gemini')).toMatchObject({
      param: 'input[0].content[1]',
      message: expect.stringMatching(/^Invalid 'input\[0\]\.content\[1\]': ftp: URLs are not supported/),
    });
  });

  it.each(['gemini', 'anthropic'])('%s: nothing but instructions → input', (upstream) => {
    for (const input of [[{ role: 'developer', content: 'Be brief' }], [{ role: 'user', content: [{ type: 'input_text', text: '' }] }]]) {
      expect(responsesRefusal({ model: 'm', instructions: 'Be kind', input }, upstream)).toMatchObject({
        param: 'input',
        message: `Invalid 'input': ${EMPTY}`,
      });
    }
  });

  it('a structured-output schema Anthropic cannot take → text.format.schema', () => {
    const text = { format: { type: 'json_schema', name: 'out', schema: { type: 'array' } } };
    expect(responsesRefusal({ model: 'm', input: 'hi', text }, 'anthropic')).toMatchObject({ param: 'text.format.schema' });
  });
});

describe('a messages request refused after translation names the client’s field', () => {
  it('gemini: a tool_result answering no tool_use → messages[i].content[j].tool_use_id', () => {
    const messages = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'hi' },
          { type: 'tool_result', tool_use_id: 'nope', content: 'x' },
        ],
      },
    ];
    expect(messagesRefusal({ model: 'm', max_tokens: 9, messages }, 'gemini')).toMatchObject({
      param: 'messages[0].content[1].tool_use_id',
      message: "Invalid 'messages[0].content[1].tool_use_id': 'nope' does not answer a tool call made earlier in the conversation.",
    });
  });

  it('gemini: an image the model cannot fetch → its block, after tool results moved ahead of it', () => {
    const messages = [
      { role: 'user', content: 'Run it' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'and this:' },
          { type: 'image', source: { type: 'url', url: 'ftp://x/y.png' } },
          { type: 'tool_result', tool_use_id: 't1', content: 'done' },
        ],
      },
    ];
    expect(messagesRefusal({ model: 'm', max_tokens: 9, messages }, 'gemini')).toMatchObject({ param: 'messages[2].content[1]' });
  });

  it.each(['gemini', 'anthropic'])('%s: nothing but system text → messages', (upstream) => {
    for (const messages of [[{ role: 'user', content: [{ type: 'text', text: '' }] }], [{ role: 'system', content: 'Be brief' }]]) {
      expect(messagesRefusal({ model: 'm', max_tokens: 9, system: 'Be kind', messages }, upstream)).toMatchObject({
        param: 'messages',
        message: `Invalid 'messages': ${EMPTY}`,
      });
    }
  });
});

describe('ClientPaths', () => {
  const paths = new ClientPaths();
  paths.set('messages', 'input');
  paths.set('messages[1]', 'input[3]');
  paths.set('messages[1].tool_call_id', 'input[3].call_id');

  it('names a chat path by itself or its nearest recorded ancestor, never by the chat path', () => {
    expect(paths.clientPathOf('messages[1].tool_call_id')).toBe('input[3].call_id');
    expect(paths.clientPathOf('messages[1].content[0].text')).toBe('input[3]');
    expect(paths.clientPathOf('messages[7]')).toBe('input');
    expect(paths.clientPathOf('n')).toBeNull();
  });

  it('renames only 400s naming a field; with no counterpart, the message loses the chat name too', () => {
    const renamed = paths.rename(
      new GatewayError({ status: 400, code: 'invalid_value', message: "Invalid 'n': n must be 1.", param: 'n' }),
    );
    expect(renamed).toMatchObject({ status: 400, code: 'invalid_value', param: null, message: 'n must be 1.' });
    const upstream = new GatewayError({ status: 502, code: 'upstream_error', message: 'bad gateway' });
    expect(paths.rename(upstream)).toBe(upstream);
  });

  it('renames what a chat provider throws, when called, when streamed and before the stream starts', async () => {
    const refused = new GatewayError({ status: 400, code: 'invalid_value', message: "Invalid 'messages[1]': no.", param: 'messages[1]' });
    const channel = {} as Channel;
    const body = {} as ChatCompletionRequest;
    const failing = (when: 'sync' | 'iteration'): ChatProvider => ({
      complete: () => Promise.reject(refused),
      stream: (): MeasuredStream<ChatCompletionChunk> => {
        if (when === 'sync') throw refused;
        return {
          // eslint-disable-next-line require-yield
          async *[Symbol.asyncIterator]() {
            throw refused;
          },
          usage: () => ({}),
        };
      },
    });
    const expected = { param: 'input[3]', message: "Invalid 'input[3]': no." };
    await expect(paths.naming(failing('sync')).complete(channel, body)).rejects.toMatchObject(expected);
    expect(() => paths.naming(failing('sync')).stream(channel, body)).toThrow(expect.objectContaining(expected));
    const stream = paths.naming(failing('iteration')).stream(channel, body);
    await expect(stream[Symbol.asyncIterator]().next()).rejects.toMatchObject(expected);
    expect(stream.usage()).toEqual({});
  });
});
