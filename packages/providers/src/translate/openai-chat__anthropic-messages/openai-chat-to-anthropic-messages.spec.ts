/**
 * Chat-completions → Anthropic messages: requests (a chat client on a sigma model), responses and
 * streams (a messages client on a chat model). Inputs and expected outputs are fixtures; the stream's
 * expected output is the exact SSE text a messages client receives.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  anthropicStreamEventSchema,
  chatCompletionRequestSchema,
  parseOrThrow,
  type AnthropicStreamEvent,
  type ChatCompletionChunk,
  type ChatCompletionRequest,
} from '@unigate/contracts';
import { chatChunksToAnthropicEvents, ChatToAnthropicStream } from './openai-chat-to-anthropic-messages.stream';
import { chatToAnthropicRequest } from './openai-chat-to-anthropic-messages.request';
import { chatToAnthropicResponse } from './openai-chat-to-anthropic-messages.response';
import { gatewayErrorOf } from '../../__test-support__/gateway-error';

const fixture = (name: string) => readFileSync(join(__dirname, '__fixtures__', name), 'utf8');
const pair = (name: string) => JSON.parse(fixture(name));
const chunks = (name: string): ChatCompletionChunk[] =>
  fixture(name)
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
const sse = (events: AnthropicStreamEvent[]) => events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('');
const chat = (extra: Partial<ChatCompletionRequest> = {}): ChatCompletionRequest => ({
  model: 'sigma-sonnet-4-6',
  messages: [{ role: 'user', content: 'hi' }],
  ...extra,
});

const rejection = gatewayErrorOf;

describe('chatToAnthropicRequest', () => {
  it.each(['conversation', 'json-mode', 'reasoning'])('translates the %s fixture', (name) => {
    const { input, options, expected } = pair(`chat-to-anthropic.request.${name}.json`);
    expect(chatToAnthropicRequest(input, options)).toEqual(expected);
  });

  it('keeps a plain conversation in string form and defaults max_tokens', () => {
    const { body } = chatToAnthropicRequest(
      chat({
        messages: [
          { role: 'system', content: 'S' },
          { role: 'user', content: 'U' },
          { role: 'assistant', content: 'A' },
        ],
      }),
      { model: 'up' },
    );
    expect(body).toEqual({
      model: 'up',
      max_tokens: 4096,
      system: 'S',
      messages: [
        { role: 'user', content: 'U' },
        { role: 'assistant', content: 'A' },
      ],
    });
  });

  it('joins a long run of same-role messages in linear time, keeping every block in order', () => {
    const messages = Array.from({ length: 100_000 }, (_, i) => ({ role: 'user' as const, content: `m${i}` }));
    const started = performance.now();
    const { body } = chatToAnthropicRequest(chat({ messages }), { model: 'up' });
    // Linear work takes tens of milliseconds; the quadratic join took over a minute.
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(body.messages).toHaveLength(1);
    const blocks = body.messages[0].content as Array<{ text: string }>;
    expect(blocks).toHaveLength(100_000);
    expect([blocks[0].text, blocks[99_999].text]).toEqual(['m0', 'm99999']);
  });

  it("joining turns never changes the caller's content arrays", () => {
    const first = [{ type: 'text' as const, text: 'a' }];
    const request = chat({
      messages: [
        { role: 'user', content: first },
        { role: 'user', content: 'b' },
      ],
    });
    const { body } = chatToAnthropicRequest(request, { model: 'up' });
    expect(body.messages[0].content).toEqual([
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
    ]);
    expect(first).toEqual([{ type: 'text', text: 'a' }]);
  });

  it('maps every tool_choice form', () => {
    const tools = [{ type: 'function' as const, function: { name: 'f', parameters: { properties: {} } } }];
    const choice = (tool_choice: ChatCompletionRequest['tool_choice']) =>
      chatToAnthropicRequest(chat({ tools, tool_choice }), { model: 'm' }).body.tool_choice;
    expect(choice('auto')).toEqual({ type: 'auto' });
    expect(choice('none')).toEqual({ type: 'none' });
    expect(choice('required')).toEqual({ type: 'any' });
    expect(choice({ type: 'function', function: { name: 'f' } })).toEqual({ type: 'tool', name: 'f' });
    expect(choice(undefined)).toBeUndefined();
    expect(chatToAnthropicRequest(chat({ tools }), { model: 'm' }).body.tools).toEqual([
      { name: 'f', input_schema: { type: 'object', properties: {} } },
    ]);
    expect(chatToAnthropicRequest(chat({ tool_choice: 'required' }), { model: 'm' }).body).not.toHaveProperty('tool_choice');
  });

  it('sets the client max over the default, and leaves thinking out when a tool is forced', () => {
    expect(
      chatToAnthropicRequest(chat({ max_completion_tokens: 7, max_tokens: 9 }), { model: 'm', defaultMaxTokens: 100 }).body.max_tokens,
    ).toBe(7);
    const tools = [{ type: 'function' as const, function: { name: 'f' } }];
    const { body } = chatToAnthropicRequest(chat({ tools, tool_choice: 'required', reasoning_effort: 'high', temperature: 0.3 }), {
      model: 'm',
    });
    expect(body).not.toHaveProperty('thinking');
    expect(body.temperature).toBe(0.3);
  });

  it('passes a thinking object through and shrinks a budget the max_tokens cannot hold', () => {
    const given = chatToAnthropicRequest(chat({ thinking: { type: 'enabled', budget_tokens: 2048 }, max_tokens: 1500 }), {
      model: 'm',
    }).body;
    expect(given.thinking).toEqual({ type: 'enabled', budget_tokens: 1499 });
    const tooSmall = chatToAnthropicRequest(chat({ reasoning_effort: 'high', max_tokens: 500, temperature: 0.5 }), { model: 'm' }).body;
    expect(tooSmall).not.toHaveProperty('thinking');
    expect(tooSmall.temperature).toBe(0.5);
  });

  it('leaves out the blank text Anthropic refuses (an empty or whitespace block, a blank turn), a dropped breakpoint on the block before', () => {
    const mark = { type: 'ephemeral' as const };
    const { body } = chatToAnthropicRequest(
      chat({
        messages: [
          {
            role: 'system',
            content: [
              { type: 'text', text: 'S' },
              { type: 'text', text: ' ' },
            ],
          },
          { role: 'user', content: 'first' },
          { role: 'assistant', content: 'A' },
          { role: 'user', content: '' },
          { role: 'user', content: '  \n' },
          { role: 'user', content: [{ type: 'text', text: '\t', cache_control: mark }] },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'rules' },
              { type: 'text', text: '', cache_control: mark },
              { type: 'text', text: 'question' },
              { type: 'text', text: ' ' },
            ],
          },
          { role: 'assistant', content: ' ', tool_calls: [{ id: 't1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
          {
            role: 'tool',
            tool_call_id: 't1',
            content: [
              { type: 'text', text: 'done' },
              { type: 'text', text: '' },
            ],
          },
        ],
      }),
      { model: 'up' },
    );
    expect(body.system).toBe('S');
    expect(body.messages).toEqual([
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'A' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'rules', cache_control: mark },
          { type: 'text', text: 'question' },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'done' }] }] },
    ]);
  });

  it('turns message-level cache_control into a breakpoint on the last block', () => {
    const { body } = chatToAnthropicRequest(
      chat({ messages: [{ role: 'user', content: 'long context', cache_control: { type: 'ephemeral' } }] }),
      { model: 'm' },
    );
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'long context', cache_control: { type: 'ephemeral' } }] },
    ]);
  });

  describe('with cache_control on a content part (OpenRouter convention), as the chat schema parses it', () => {
    const hour = { type: 'ephemeral' as const, ttl: '1h' as const };
    const ephemeral = { type: 'ephemeral' as const };
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    const parsed = (extra: Record<string, unknown>) =>
      parseOrThrow(chatCompletionRequestSchema, { model: 'sigma-sonnet-4-6', max_tokens: 100, ...extra });

    it('sets it on that block: a system text part, a user text or image part', () => {
      const { body } = chatToAnthropicRequest(
        parsed({
          messages: [
            {
              role: 'system',
              content: [
                { type: 'text', text: 'rules', cache_control: hour },
                { type: 'text', text: 'today' },
              ],
            },
            {
              role: 'user',
              content: [
                { type: 'image_url', image_url: { url: png }, cache_control: ephemeral },
                { type: 'text', text: 'what is this?' },
              ],
            },
          ],
        }),
        { model: 'm' },
      );
      expect(body.system).toEqual([
        { type: 'text', text: 'rules', cache_control: hour },
        { type: 'text', text: 'today' },
      ]);
      expect(body.messages).toEqual([
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' }, cache_control: ephemeral },
            { type: 'text', text: 'what is this?' },
          ],
        },
      ]);
    });

    it("counts as the client's own breakpoint: a prompt_cache_key then marks nothing more", () => {
      const question = { role: 'user', content: 'and now?' };
      // A tool message's marked part, nested in its tool_result, counts too.
      const call = {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
      };
      const toolResult = { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'found', cache_control: ephemeral }] };
      for (const marked of [
        [{ role: 'system', content: [{ type: 'text', text: 'rules', cache_control: ephemeral }] }],
        [{ role: 'user', content: [{ type: 'text', text: 'context', cache_control: ephemeral }] }],
        [{ role: 'user', content: 'look it up' }, call, toolResult],
      ]) {
        const { body } = chatToAnthropicRequest(parsed({ messages: [...marked, question], prompt_cache_key: 'k' }), { model: 'm' });
        // The client's mark is the only one: the end of the prompt is not marked as well.
        expect(JSON.stringify(body).match(/cache_control/g)).toHaveLength(1);
        const end = body.messages.at(-1)!.content;
        expect(typeof end === 'string' ? end : end.at(-1)).not.toHaveProperty('cache_control');
      }
    });
  });

  describe('with a prompt_cache_key (Codex sends one every turn)', () => {
    const ephemeral = { type: 'ephemeral' as const };
    const turns = [
      { role: 'system' as const, content: 'You are a coding agent.' },
      { role: 'user' as const, content: 'list the files' },
      {
        role: 'assistant' as const,
        content: null,
        tool_calls: [{ id: 'c1', type: 'function' as const, function: { name: 'ls', arguments: '{}' } }],
      },
      { role: 'tool' as const, tool_call_id: 'c1', content: 'a.ts b.ts' },
    ];

    it('marks the end of the prompt and the end of the previous turn as cache breakpoints', () => {
      const { body } = chatToAnthropicRequest(chat({ messages: turns, prompt_cache_key: 'session-1' }), { model: 'm' });
      expect(body.system).toBe('You are a coding agent.');
      expect(body.messages).toEqual([
        { role: 'user', content: [{ type: 'text', text: 'list the files', cache_control: ephemeral }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'ls', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: 'a.ts b.ts', cache_control: ephemeral }] },
      ]);
      // The first turn: only the end of its prompt, which the next turn marks again.
      const first = chatToAnthropicRequest(chat({ messages: turns.slice(0, 2), prompt_cache_key: 'session-1' }), { model: 'm' });
      expect(first.body.messages).toEqual([body.messages[0]]);
    });

    it("leaves the client's own breakpoints alone, and marks nothing without a key", () => {
      const own = chatToAnthropicRequest(
        chat({ messages: [turns[0], { ...turns[1], cache_control: ephemeral }, turns[2], turns[3]], prompt_cache_key: 'k' }),
        { model: 'm' },
      );
      expect(own.body.messages.map((m) => JSON.stringify(m).includes('cache_control'))).toEqual([true, false, false]);
      const none = chatToAnthropicRequest(chat({ messages: turns }), { model: 'm' });
      expect(JSON.stringify(none.body)).not.toContain('cache_control');
    });
  });

  it.each([
    [chat({ n: 2 }), 'n'],
    [
      chat({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'ftp://x/y.png' } }] }] }),
      'messages[0].content[0].image_url.url',
    ],
    [
      chat({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/bmp;base64,AAAA' } }] }] }),
      'messages[0].content[0].image_url.url',
    ],
    [
      chat({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png,rawbytes' } }] }] }),
      'messages[0].content[0].image_url.url',
    ],
    [
      chat({ messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'x', format: 'wav' } }] as never }] }),
      'messages[0].content[0].type',
    ],
    [
      chat({
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '[1]' } }] },
        ],
      }),
      'messages[1].tool_calls[0].function.arguments',
    ],
    [chat({ response_format: { type: 'json_schema', json_schema: { schema: { type: 'array' } } } }), 'response_format.json_schema.schema'],
  ])('refuses what Anthropic cannot take, naming the field (%#)', (body, param) => {
    const err = rejection(() => chatToAnthropicRequest(body, { model: 'm' }));
    expect(err).toMatchObject({ status: 400, param });
    expect(err.message).toContain(param);
  });

  it.each<[string, ChatCompletionRequest['messages']]>([
    ['system messages alone', [{ role: 'system', content: 'Be brief' }]],
    [
      'empty user content',
      [
        { role: 'system', content: 'Be brief' },
        { role: 'user', content: '' },
      ],
    ],
    ['empty text blocks', [{ role: 'user', content: [{ type: 'text', text: '' }] }]],
    ['whitespace', [{ role: 'user', content: ' \n ' }]],
  ])('refuses %s with a 400 of its own naming messages, not an empty `messages` upstream', (_label, messages) => {
    expect(rejection(() => chatToAnthropicRequest(chat({ messages }), { model: 'm' }))).toMatchObject({
      status: 400,
      param: 'messages',
      message: "Invalid 'messages': the model needs at least one user or assistant message with content besides the system instructions.",
    });
  });
});

describe('chatToAnthropicResponse', () => {
  it('translates the tools fixture', () => {
    const { input, options, expected } = pair('chat-to-anthropic.response.tools.json');
    expect(chatToAnthropicResponse(input, options)).toEqual(expected);
    // Without an id of the gateway's, the completion's own in Anthropic's form.
    expect(chatToAnthropicResponse(input, { model: options.model }).id).toBe('msg_abc');
  });

  it('maps finish reasons onto stop reasons', () => {
    const res = (finish: string | null) =>
      chatToAnthropicResponse(
        {
          id: 'c',
          object: 'chat.completion',
          created: 1,
          model: 'm',
          choices: [{ index: 0, message: { role: 'assistant', content: 'x' }, finish_reason: finish as never }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        },
        { model: 'm' },
      ).stop_reason;
    expect([res('stop'), res('length'), res('tool_calls'), res('content_filter'), res(null)]).toEqual([
      'end_turn',
      'max_tokens',
      'tool_use',
      'refusal',
      'end_turn',
    ]);
  });
});

describe('ChatToAnthropicStream', () => {
  const options = { model: 'claude-sonnet-4-5', id: 'msg_gw_1', inputTokens: 118 };

  it('emits the exact Anthropic event sequence for reasoning, text and two tool calls', async () => {
    async function* source() {
      yield* chunks('chat-to-anthropic.stream.reasoning-tools.chunks.txt');
    }
    const events: AnthropicStreamEvent[] = [];
    for await (const e of chatChunksToAnthropicEvents(source(), options)) events.push(e);
    expect(sse(events)).toBe(fixture('chat-to-anthropic.stream.reasoning-tools.expected.sse.txt'));
    for (const e of events) expect(anthropicStreamEventSchema.parse(e)).toEqual(e);
  });

  it('estimates usage when the chunks carry none, and still opens and closes a well-formed message', () => {
    const t = new ChatToAnthropicStream({ model: 'm', inputTokens: 9 });
    const base = { id: 'chatcmpl-x', object: 'chat.completion.chunk' as const, created: 1, model: 'm' };
    const events = [
      ...t.push({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: 'Hello world' }, finish_reason: null }] }),
      ...t.push({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'length' }] }),
      ...t.end(),
    ];
    expect(events.map((e) => e.type)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[0]).toMatchObject({ message: { id: 'msg_x', usage: { input_tokens: 9, output_tokens: 1 } } });
    expect(events[5]).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'max_tokens', stop_sequence: null },
      usage: { input_tokens: 9, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 2 },
    });
  });

  it('sends an empty message for an empty stream', () => {
    const events = new ChatToAnthropicStream({ model: 'm', inputTokens: 3, id: 'msg_e' }).end();
    expect(events.map((e) => e.type)).toEqual(['message_start', 'message_delta', 'message_stop']);
  });
});
