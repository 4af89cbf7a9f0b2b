import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GatewayError } from '../errors';
import { countResponsesPromptTokens, countTextTokens } from '../tokens';
import { parseOrThrow } from '../validation';
import { responsesStreamEventSchema } from './events';
import { inputItems, responsesRequestSchema } from './request';
import { responsesResponseSchema, usageFromResponses } from './response';

const base = { model: 'm', input: 'hi' };

function reject(body: unknown): GatewayError {
  try {
    parseOrThrow(responsesRequestSchema, body);
  } catch (e) {
    if (e instanceof GatewayError) return e;
    throw e;
  }
  throw new Error('expected a validation error');
}

describe('responses request validation', () => {
  it('accepts what Codex CLI 0.169.0 sends, unchanged', () => {
    const captured = JSON.parse(readFileSync(join(__dirname, '..', '__fixtures__', 'codex-0.169.0.responses.json'), 'utf8'));
    const parsed = parseOrThrow(responsesRequestSchema, captured.body);
    expect(parsed).toEqual(captured.body);
    expect(parsed.tools?.map((t) => t.type)).toEqual(expect.arrayContaining(['function', 'namespace', 'web_search']));
  });

  it('accepts every input item kind, an easy message without type, and settings', () => {
    const body = {
      model: 'm',
      instructions: 'Be brief',
      input: [
        { role: 'developer', content: 'Follow the rules' },
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'look' },
            { type: 'input_image', image_url: 'https://x/a.png' },
          ],
        },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'thinking' }], encrypted_content: 'e' },
        { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: 'done' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ok', annotations: [] }] },
        { type: 'web_search_call', id: 'ws_1', status: 'completed' },
      ],
      tools: [
        { type: 'function', name: 'f', parameters: { type: 'object' }, strict: false },
        { type: 'custom', name: 'apply_patch', format: { type: 'grammar' } },
        { type: 'namespace', name: 'ns', description: 'd', tools: [{ type: 'function', name: 'g', parameters: null }] },
        { type: 'web_search_preview_2025_03_11' },
      ],
      tool_choice: { type: 'function', name: 'f' },
      parallel_tool_calls: false,
      reasoning: { effort: 'high', summary: 'auto' },
      max_output_tokens: 500,
      text: { format: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true } },
      store: true,
      previous_response_id: 'resp_1',
      include: ['reasoning.encrypted_content'],
    };
    const parsed = parseOrThrow(responsesRequestSchema, body);
    expect(inputItems(parsed)[0]).toEqual({ type: 'message', role: 'developer', content: 'Follow the rules' });
    expect(parsed.tools).toEqual(body.tools);
  });

  it.each([
    [{ model: 'm' }, 'input'],
    [{ ...base, model: '' }, 'model'],
    [{ ...base, input: 5 }, 'input'],
    [{ ...base, input: [{ role: 'tool', content: 'x' }] }, 'input[0].role'],
    [{ ...base, input: [{ type: 'function_call', call_id: 'c', name: 'f' }] }, 'input[0].arguments'],
    [{ ...base, input: [{ type: 'message', role: 'user', content: [{ type: 'input_audio' }] }] }, 'input[0].content[0].type'],
    [{ ...base, input: [{ type: 'nonsense' }] }, 'input[0].type'],
    [{ ...base, tools: [{ type: 'function' }] }, 'tools[0].name'],
    [{ ...base, reasoning: { effort: 'extreme' } }, 'reasoning.effort'],
    [{ ...base, max_output_tokens: 0 }, 'max_output_tokens'],
    [{ ...base, temperature: 3 }, 'temperature'],
    [{ ...base, text: { format: { type: 'json_schema', schema: {} } } }, 'text.format.name'],
    [{ ...base, background: true }, 'background'],
    [{ ...base, conversation: 'conv_1' }, 'conversation'],
    [{ ...base, stream: 'yes' }, 'stream'],
  ])('names the field for %j', (body, field) => {
    const err = reject(body);
    expect(err.status).toBe(400);
    expect(err.param).toBe(field);
    expect(err.message).toContain(field);
  });

  it('needs no input when it continues a stored response', () => {
    expect(parseOrThrow(responsesRequestSchema, { model: 'm', previous_response_id: 'resp_1' })).toMatchObject({ model: 'm' });
  });

  it('estimates the prompt from every part that reaches the model', () => {
    const short = countResponsesPromptTokens({ input: 'hello there' });
    expect(short).toBe(3 + 3 + countTextTokens('hello there'));
    const withAll = countResponsesPromptTokens({
      instructions: 'Be brief',
      input: [
        { type: 'message', role: 'user', content: 'hello there' },
        { type: 'function_call', call_id: 'c', name: 'read', arguments: '{"path":"a"}' },
        { type: 'function_call_output', call_id: 'c', output: 'file text' },
      ],
      tools: [{ type: 'function', name: 'read', parameters: { type: 'object' } }],
    });
    expect(withAll).toBeGreaterThan(short + countTextTokens('Be brief') + countTextTokens('file text'));
  });
});

describe('responses answers and events', () => {
  const response = {
    id: 'resp_1',
    object: 'response',
    created_at: 1,
    status: 'completed',
    model: 'm',
    output: [
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'hm' }] },
      {
        type: 'message',
        id: 'msg_1',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Hi', annotations: [] }],
      },
      { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '{}', status: 'completed' },
      { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search' } },
    ],
    usage: {
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 4 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 2 },
      total_tokens: 15,
    },
  };

  it('parses a whole response and bills it: cached input inside input, reasoning inside output', () => {
    const parsed = responsesResponseSchema.parse(response);
    expect(parsed).toEqual(response);
    expect(usageFromResponses(parsed.usage!)).toEqual({ input_tokens: 10, cached_input_tokens: 4, output_tokens: 5 });
  });

  it('parses the typed event sequence, and hosted-tool events as they are', () => {
    const events = [
      { type: 'response.created', sequence_number: 0, response: { ...response, status: 'in_progress', output: [], usage: null } },
      { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: { type: 'reasoning', id: 'rs_1', summary: [] } },
      {
        type: 'response.reasoning_summary_part.added',
        sequence_number: 2,
        item_id: 'rs_1',
        output_index: 0,
        summary_index: 0,
        part: { type: 'summary_text', text: '' },
      },
      { type: 'response.reasoning_summary_text.delta', sequence_number: 3, item_id: 'rs_1', output_index: 0, summary_index: 0, delta: 'h' },
      {
        type: 'response.content_part.added',
        sequence_number: 4,
        item_id: 'msg_1',
        output_index: 1,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      },
      {
        type: 'response.output_text.delta',
        sequence_number: 5,
        item_id: 'msg_1',
        output_index: 1,
        content_index: 0,
        delta: 'Hi',
        logprobs: [],
      },
      { type: 'response.function_call_arguments.delta', sequence_number: 6, item_id: 'fc_1', output_index: 2, delta: '{}' },
      { type: 'response.web_search_call.completed', sequence_number: 7, item_id: 'ws_1', output_index: 3 },
      { type: 'response.completed', sequence_number: 8, response },
      { type: 'error', sequence_number: 9, code: 'server_error', message: 'boom', param: null },
    ];
    for (const e of events) expect(responsesStreamEventSchema.parse(e)).toEqual(e);
    expect(responsesStreamEventSchema.safeParse({ type: 'response.output_text.delta', item_id: 'x' }).success).toBe(false);
    expect(responsesStreamEventSchema.safeParse({ type: 'response.made_up' }).success).toBe(false);
  });
});
