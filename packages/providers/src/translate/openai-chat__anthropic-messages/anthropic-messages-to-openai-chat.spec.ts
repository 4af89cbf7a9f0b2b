/**
 * Anthropic messages → chat-completions: requests (a messages client, e.g. Claude Code, on a chat
 * model), responses and streams (a chat client on a sigma model). Streams are replayed from recorded
 * SSE text through the real SSE reader.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  anthropicStreamEventSchema,
  GatewayError,
  type AnthropicMessagesRequest,
  type AnthropicStreamEvent,
  type ChatCompletionChunk,
} from '@unigate/contracts';
import { readSse } from '../../sse/sse-reader';
import { anthropicToChatRequest } from './anthropic-messages-to-openai-chat.request';
import { anthropicToChatResponse } from './anthropic-messages-to-openai-chat.response';
import { anthropicEventsToChatChunks, AnthropicToChatStream } from './anthropic-messages-to-openai-chat.stream';

const fixture = (name: string) => readFileSync(join(__dirname, '__fixtures__', name), 'utf8');
const pair = (name: string) => JSON.parse(fixture(name));

async function* toAsync<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}

async function* events(name: string): AsyncGenerator<AnthropicStreamEvent> {
  for await (const ev of readSse(toAsync([fixture(name)]))) yield anthropicStreamEventSchema.parse(JSON.parse(ev.data));
}

async function translate(name: string, jsonTool: string | null = null): Promise<ChatCompletionChunk[]> {
  const out: ChatCompletionChunk[] = [];
  for await (const c of anthropicEventsToChatChunks(events(name), { model: 'sigma-sonnet-4-6', jsonTool, created: 1700000000 }))
    out.push(c);
  return out;
}

const request = (extra: Partial<AnthropicMessagesRequest> = {}): AnthropicMessagesRequest => ({
  model: 'claude-haiku-4-5',
  max_tokens: 50,
  messages: [{ role: 'user', content: 'hi' }],
  ...extra,
});

describe('anthropicToChatRequest', () => {
  it('translates a Claude Code style request', () => {
    const { input, options, expected } = pair('anthropic-to-chat.request.claude-code.json');
    expect(anthropicToChatRequest(input, options)).toEqual(expected);
  });

  it('keeps the model, maps tool_choice forms and count_tokens bodies', () => {
    const tools = [{ name: 'f', input_schema: { type: 'object' as const } }];
    expect(anthropicToChatRequest(request())).toEqual({
      model: 'claude-haiku-4-5',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 50,
    });
    const choice = (tool_choice: AnthropicMessagesRequest['tool_choice']) =>
      anthropicToChatRequest(request({ tools, tool_choice })).tool_choice;
    expect([choice({ type: 'auto' }), choice({ type: 'any' }), choice({ type: 'none' }), choice({ type: 'tool', name: 'f' })]).toEqual([
      'auto',
      'required',
      'none',
      { type: 'function', function: { name: 'f' } },
    ]);
    expect(anthropicToChatRequest({ model: 'm', messages: [{ role: 'user', content: 'x' }], system: 'S' })).toEqual({
      model: 'm',
      messages: [
        { role: 'system', content: 'S' },
        { role: 'user', content: 'x' },
      ],
    });
  });

  it('maps thinking and effort only through the reasoningEffort option', () => {
    const thinking = { type: 'enabled' as const, budget_tokens: 2048 };
    expect(anthropicToChatRequest(request({ thinking, max_tokens: 4000 }))).not.toHaveProperty('reasoning_effort');
    const effortOf = (extra: Partial<AnthropicMessagesRequest>) => {
      const asked: string[] = [];
      const chat = anthropicToChatRequest(request({ max_tokens: 40_000, ...extra }), {
        reasoningEffort: (effort) => (asked.push(effort), effort === 'low' ? undefined : effort),
      });
      return { sent: chat.reasoning_effort, asked };
    };
    expect(effortOf({ thinking })).toEqual({ sent: undefined, asked: ['low'] }); // the model takes no `low`
    expect(effortOf({ thinking: { type: 'enabled', budget_tokens: 32_000 } })).toEqual({ sent: 'high', asked: ['high'] });
    expect(effortOf({ thinking: { type: 'adaptive' }, output_config: { effort: 'medium' } })).toEqual({
      sent: 'medium',
      asked: ['medium'],
    });
    expect(effortOf({ thinking: { type: 'adaptive' } })).toEqual({ sent: undefined, asked: [] });
    expect(effortOf({ thinking: { type: 'disabled' }, output_config: { effort: 'high' } })).toEqual({ sent: 'none', asked: ['none'] });
  });

  it('translates what Claude Code 2.1.328 really sends: its system turn in place, deferred tools offered, the rest dropped', () => {
    const captured = JSON.parse(
      readFileSync(join(__dirname, '../../../../contracts/src/__fixtures__/claude-code-2.1.328.messages.json'), 'utf8'),
    );
    const body = captured.body as AnthropicMessagesRequest;
    const chat = anthropicToChatRequest(body, { model: 'gamma-2.5-flash', reasoningEffort: (e) => e });
    expect(chat.messages.map((m) => m.role)).toEqual(['system', 'user', 'system']);
    expect(chat.messages[2].content).toContain('Primary working directory');
    expect(chat.tools?.map((t) => t.function.name)).toEqual(body.tools?.map((t) => t.name));
    expect(chat.reasoning_effort).toBe('medium');
    expect(chat).not.toHaveProperty('user'); // a JSON blob longer than an end-user id may be
    for (const dropped of ['thinking', 'output_config', 'context_management', 'metadata']) expect(chat).not.toHaveProperty(dropped);
    expect(JSON.stringify(chat)).not.toContain('defer_loading');
  });

  it('keeps a compaction summary as text and drops server-tool blocks silently', () => {
    const chat = anthropicToChatRequest(
      request({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'compaction', content: 'We fixed the build.' },
              { type: 'search_result', source: 's', title: 't', content: [] },
            ],
          },
          {
            role: 'assistant',
            content: [
              { type: 'server_tool_use', id: 's', name: 'web_search', input: {} },
              { type: 'text', text: 'Done.' },
            ],
          },
        ],
      }),
    );
    expect(chat.messages).toEqual([
      { role: 'user', content: 'We fixed the build.' },
      { role: 'assistant', content: 'Done.' },
    ]);
  });

  it.each([
    [
      request({
        messages: [
          { role: 'user', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' } }] },
        ],
      }),
      'messages[0].content[0]',
    ],
    [
      request({ messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'file', file_id: 'file_1' } }] }] }),
      'messages[0].content[0]',
    ],
    [request({ stop_sequences: ['a', 'b', 'c', 'd', 'e'] }), 'stop_sequences'],
  ])('refuses what a chat model cannot take, naming the field (%#)', (body, param) => {
    let err: unknown;
    try {
      anthropicToChatRequest(body);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ status: 400, param });
  });
});

describe('anthropicToChatResponse', () => {
  it('translates thinking, text and tool_use, dropping blocks with no chat form', () => {
    const { input, options, expected } = pair('anthropic-to-chat.response.thinking-tools.json');
    expect(anthropicToChatResponse(input, options)).toEqual(expected);
  });

  it('answers a JSON-mode tool call as content with finish_reason stop', () => {
    const msg = {
      id: 'msg_1',
      type: 'message' as const,
      role: 'assistant' as const,
      model: 'm',
      content: [{ type: 'tool_use' as const, id: 't', name: 'json_response', input: { name: 'Tom' } }],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    };
    const res = anthropicToChatResponse(msg, { model: 'x', jsonTool: 'json_response' });
    expect(res.choices[0]).toMatchObject({ message: { content: '{"name":"Tom"}' }, finish_reason: 'stop' });
    expect(res.choices[0].message).not.toHaveProperty('tool_calls');
    expect(res.usage).toEqual({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, prompt_tokens_details: { cached_tokens: 0 } });
  });

  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['max_tokens', 'length'],
    ['tool_use', 'tool_calls'],
    ['refusal', 'content_filter'],
    ['pause_turn', 'stop'],
    ['model_context_window_exceeded', 'length'],
  ])('maps stop_reason %s to %s', (stop, finish) => {
    const msg = {
      id: 'm',
      type: 'message' as const,
      role: 'assistant' as const,
      model: 'm',
      content: [],
      stop_reason: stop,
      usage: { input_tokens: 1, output_tokens: 0 },
    };
    expect(anthropicToChatResponse(msg, { model: 'm' }).choices[0].finish_reason).toBe(finish);
  });
});

describe('AnthropicToChatStream', () => {
  it('streams thinking, text and tool calls with the OpenAI fragment rules and a final usage chunk', async () => {
    const got = await translate('anthropic-to-chat.stream.thinking-tools.sse.txt');
    const base = {
      id: 'chatcmpl-01XFDUDYJgAACzvnptvVoYEL',
      object: 'chat.completion.chunk',
      created: 1700000000,
      model: 'sigma-sonnet-4-6',
    };
    const choice = (delta: object, finish: string | null = null) => ({
      ...base,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    });
    expect(got).toEqual([
      choice({ role: 'assistant', content: '' }),
      choice({ reasoning_content: 'Need the' }),
      choice({ reasoning_content: ' weather.' }),
      choice({ content: 'Checking' }),
      choice({ content: ' now.' }),
      choice({
        tool_calls: [
          { index: 0, id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', type: 'function', function: { name: 'get_weather', arguments: '' } },
        ],
      }),
      choice({ tool_calls: [{ index: 0, function: { arguments: '{"city": "Pa' } }] }),
      choice({ tool_calls: [{ index: 0, function: { arguments: 'ris"}' } }] }),
      choice({ tool_calls: [{ index: 1, id: 'toolu_02', type: 'function', function: { name: 'get_time', arguments: '' } }] }),
      choice({ tool_calls: [{ index: 1, function: { arguments: '{}' } }] }),
      choice({}, 'tool_calls'),
      {
        ...base,
        choices: [],
        usage: {
          prompt_tokens: 2073,
          completion_tokens: 89,
          total_tokens: 2162,
          prompt_tokens_details: { cached_tokens: 2048 },
          completion_tokens_details: { reasoning_tokens: 4 },
        },
      },
    ]);
  });

  it('streams a JSON-mode answer as content', async () => {
    const got = await translate('anthropic-to-chat.stream.json-mode.sse.txt', 'json_response');
    expect(got.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('{"name":"Tom"}');
    expect(got.some((c) => c.choices[0]?.delta.tool_calls)).toBe(false);
    expect(got[got.length - 2].choices[0].finish_reason).toBe('stop');
    expect(got[got.length - 1].usage).toEqual({
      prompt_tokens: 40,
      completion_tokens: 12,
      total_tokens: 52,
      prompt_tokens_details: { cached_tokens: 0 },
    });
  });

  it('throws the message of an error event', () => {
    const t = new AnthropicToChatStream({ model: 'm' });
    expect(() => t.push({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })).toThrow('Overloaded');
  });
});
