import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { anthropicCountTokensRequestSchema, anthropicMessagesRequestSchema, anthropicStreamEventSchema } from './anthropic';
import { GatewayError } from './errors';
import { parseOrThrow } from './validation';

const base = { model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] };

function reject(body: unknown, schema = anthropicMessagesRequestSchema): GatewayError {
  try {
    parseOrThrow(schema, body);
  } catch (e) {
    if (e instanceof GatewayError) return e;
    throw e;
  }
  throw new Error('expected a validation error');
}

describe('anthropic messages request validation', () => {
  it('accepts a full request and keeps unknown fields and cache_control', () => {
    const body = {
      ...base,
      system: [{ type: 'text', text: 'Be brief', cache_control: { type: 'ephemeral', ttl: '1h' } }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'doc' }, title: 'T' },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hmm', signature: 'sig' },
            { type: 'redacted_thinking', data: 'xx' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'sunny' }], is_error: false },
            { type: 'search_result', source: 'x', title: 't', content: [] },
          ],
        },
      ],
      tools: [
        {
          name: 'get_weather',
          description: 'Weather',
          input_schema: { type: 'object', properties: { city: { type: 'string' } } },
          cache_control: { type: 'ephemeral' },
        },
        { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
      ],
      tool_choice: { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true },
      thinking: { type: 'enabled', budget_tokens: 1024 },
      max_tokens: 2048,
      stop_sequences: ['END'],
      temperature: 1,
      top_p: 0.9,
      top_k: 5,
      metadata: { user_id: 'u1' },
      stream: true,
      context_management: { edits: [] },
    };
    const parsed = parseOrThrow(anthropicMessagesRequestSchema, body);
    expect(parsed).toEqual(body);
  });

  it.each([
    [{ ...base, max_tokens: undefined }, 'max_tokens'],
    [{ ...base, max_tokens: 0 }, 'max_tokens'],
    [{ ...base, max_tokens: 1.5 }, 'max_tokens'],
    [{ ...base, temperature: 1.5 }, 'temperature'],
    [{ ...base, top_p: -0.1 }, 'top_p'],
    [{ ...base, top_k: -1 }, 'top_k'],
    [{ ...base, model: '' }, 'model'],
    [{ ...base, messages: [] }, 'messages'],
    [{ ...base, messages: [{ role: 'tool', content: 'x' }] }, 'messages[0].role'],
    [{ ...base, messages: [{ role: 'user', content: 5 }] }, 'messages[0].content'],
    [{ ...base, messages: [{ role: 'user', content: [{ type: 'text' }] }] }, 'messages[0].content[0].text'],
    [
      {
        ...base,
        messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/bmp', data: 'x' } }] }],
      },
      'messages[0].content[0].source.media_type',
    ],
    [{ ...base, messages: [{ role: 'user', content: [{ type: 'tool_result' }] }] }, 'messages[0].content[0].tool_use_id'],
    [
      { ...base, messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: 'x' }] }] },
      'messages[0].content[0].input',
    ],
    [{ ...base, system: 5 }, 'system'],
    [{ ...base, tools: [{ name: 'f' }] }, 'tools[0].input_schema'],
    [{ ...base, tools: [{ name: 'f', input_schema: { type: 'string' } }] }, 'tools[0].input_schema.type'],
    [{ ...base, tool_choice: { type: 'sometimes' } }, 'tool_choice.type'],
    [{ ...base, tool_choice: { type: 'tool' } }, 'tool_choice.name'],
    [{ ...base, thinking: { type: 'enabled', budget_tokens: 10 } }, 'thinking.budget_tokens'],
    [{ ...base, thinking: { type: 'enabled', budget_tokens: 2000 }, max_tokens: 2000 }, 'thinking.budget_tokens'],
    [{ ...base, stop_sequences: 'END' }, 'stop_sequences'],
    [{ ...base, stream: 'yes' }, 'stream'],
  ])('names the field for %j', (body, field) => {
    const err = reject(body);
    expect(err.status).toBe(400);
    expect(err.type).toBe('invalid_request_error');
    expect(err.param).toBe(field);
    expect(err.message).toContain(field);
  });

  it('accepts what Claude Code 2.1.328 sends, unchanged: a system turn, adaptive thinking, effort, deferred tools', () => {
    const captured = JSON.parse(readFileSync(join(__dirname, '__fixtures__', 'claude-code-2.1.328.messages.json'), 'utf8'));
    const parsed = parseOrThrow(anthropicMessagesRequestSchema, captured.body);
    expect(parsed).toEqual(captured.body);
    expect(parsed.messages.map((m) => m.role)).toEqual(['user', 'system']);
    expect(parsed.thinking).toEqual({ type: 'adaptive', display: 'omitted' });
    expect(parsed.output_config).toEqual({ effort: 'medium' });
    expect(parsed.tools?.some((t) => (t as { defer_loading?: boolean }).defer_loading)).toBe(true);
  });

  it('accepts newer block types and any metadata', () => {
    const body = {
      ...base,
      metadata: { user_id: '{"device_id":"d"}', trace: { a: 1 } },
      messages: [
        { role: 'user', content: [{ type: 'compaction', content: 'Earlier: we set up the repo.', encrypted_content: null }] },
        { role: 'system', content: [{ type: 'text', text: 'Now in plan mode.' }] },
      ],
    };
    expect(parseOrThrow(anthropicMessagesRequestSchema, body)).toEqual(body);
  });

  it('lists the block types for an unknown one', () => {
    const err = reject({ ...base, messages: [{ role: 'user', content: [{ type: 'audio' }] }] });
    expect(err.param).toBe('messages[0].content[0].type');
    expect(err.message).toContain('text, image, document, tool_use, tool_result');
  });

  it('validates count_tokens bodies without max_tokens', () => {
    expect(parseOrThrow(anthropicCountTokensRequestSchema, { model: 'm', messages: base.messages })).toMatchObject({ model: 'm' });
    expect(reject({ model: 'm' }, anthropicCountTokensRequestSchema as never).param).toBe('messages');
  });
});

describe('anthropic stream events', () => {
  it('parses every event kind of reference/anthropic.md', () => {
    const events = [
      {
        type: 'message_start',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          content: [],
          model: 'm',
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 25, output_tokens: 1 },
        },
      },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'ping' },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"a"' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'thinking_delta', thinking: 'hm' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'signature_delta', signature: 's' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 15 } },
      { type: 'message_stop' },
      { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    ];
    for (const e of events) expect(anthropicStreamEventSchema.parse(e)).toEqual(e);
    expect(anthropicStreamEventSchema.safeParse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta' } }).success).toBe(
      false,
    );
  });
});
