/**
 * The Responses API ⇄ chat completions: a Responses client (Codex CLI, the openai SDK) on a model
 * served over chat completions. Requests are checked against a fixture pair and against what Codex
 * 0.169.0 really sends; answers and streams against a recorded chat chunk stream.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  chatCompletionChunkSchema,
  GatewayError,
  parseOrThrow,
  responsesRequestSchema,
  responsesResponseSchema,
  responsesStreamEventSchema,
  type ChatCompletionChunk,
  type ChatCompletionResponse,
  type ResponsesRequest,
  type ResponsesStreamEvent,
} from '@unigate/contracts';
import {
  ChatToResponsesStream,
  chatChunksToResponsesEvents,
  chatToResponsesResponse,
  responsesToChatRequest,
  toolNamesOf,
  type ResponseContext,
} from '.';

const fixture = (name: string) => readFileSync(join(__dirname, '__fixtures__', name), 'utf8');
const codex = JSON.parse(readFileSync(join(__dirname, '../../../../contracts/src/__fixtures__/codex-0.169.0.responses.json'), 'utf8'));

const TOOLS: ResponsesRequest['tools'] = [
  { type: 'function', name: 'exec_command', parameters: { type: 'object' } },
  { type: 'custom', name: 'apply_patch' },
  { type: 'namespace', name: 'multi_agent_v1', tools: [{ type: 'function', name: 'close_agent' }] },
];

function context(req: Partial<ResponsesRequest> = {}): ResponseContext {
  const full = parseOrThrow(responsesRequestSchema, { model: 'gamma-2.5-flash', input: 'Show notes.txt', tools: TOOLS, ...req });
  return { req: full, id: 'resp_abc', tools: toolNamesOf(full), createdAt: 1700000000 };
}

async function* chunks(): AsyncGenerator<ChatCompletionChunk> {
  for (const line of fixture('chat-to-responses.stream.reasoning-text-tool.chunks.txt').split('\n').filter(Boolean)) {
    yield chatCompletionChunkSchema.parse(JSON.parse(line));
  }
}

async function events(ctx: ResponseContext): Promise<ResponsesStreamEvent[]> {
  const out: ResponsesStreamEvent[] = [];
  for await (const ev of chatChunksToResponsesEvents(chunks(), ctx)) out.push(responsesStreamEventSchema.parse(ev));
  return out;
}

describe('responsesToChatRequest', () => {
  it('translates a conversation with every item kind, tools of every kind and the settings', () => {
    const { input, expected } = JSON.parse(fixture('responses-to-chat.request.conversation.json'));
    const req = parseOrThrow(responsesRequestSchema, input);
    expect(responsesToChatRequest(req, { reasoningEffort: (e) => e }).body).toEqual(expected);
  });

  it('translates what Codex CLI 0.169.0 really sends: developer messages as system, namespaces flattened, hosted tools dropped', () => {
    const req = parseOrThrow(responsesRequestSchema, codex.body);
    const { body } = responsesToChatRequest(req, { reasoningEffort: (e) => e });
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'system', 'user', 'user']);
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: 'Say hi' });
    const names = body.tools!.map((t) => t.function.name);
    expect(names).toContain('exec_command');
    expect(names).toContain('multi_agent_v1__spawn_agent');
    expect(names).not.toContain('web_search');
    expect(body.tool_choice).toBe('auto');
    expect(body.parallel_tool_calls).toBe(true);
    for (const dropped of ['store', 'include', 'client_metadata', 'reasoning', 'reasoning_effort']) {
      expect(body).not.toHaveProperty(dropped);
    }
    // Kept: an Anthropic upstream caches the conversation for it (openai-chat-to-anthropic-messages.request.ts).
    expect(body.prompt_cache_key).toBe(codex.body.prompt_cache_key);
  });

  it('asks only for an effort the model takes, and forces a named tool by its chat name', () => {
    const req = context({ reasoning: { effort: 'medium' }, tool_choice: { type: 'function', name: 'exec_command' } }).req;
    expect(responsesToChatRequest(req, { reasoningEffort: () => undefined }).body).not.toHaveProperty('reasoning_effort');
    expect(responsesToChatRequest(req).body.tool_choice).toEqual({ type: 'function', function: { name: 'exec_command' } });
    const hostedOnly = context({ tools: [{ type: 'web_search' }], tool_choice: 'required' }).req;
    expect(responsesToChatRequest(hostedOnly).body).not.toHaveProperty('tools');
    expect(responsesToChatRequest(hostedOnly).body).not.toHaveProperty('tool_choice');
  });

  it.each([
    [
      { input: [{ role: 'user', content: [{ type: 'input_file', file_data: 'data:application/pdf;base64,JVBE' }] }] },
      'input[0].content[0]',
    ],
    [{ input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file_1' }] }] }, 'input[0].content[0]'],
  ])('refuses content chat cannot carry, naming it (%#)', (extra, param) => {
    let err: unknown;
    try {
      responsesToChatRequest(context(extra as Partial<ResponsesRequest>).req);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ status: 400, param });
  });
});

describe('chat answers → Responses', () => {
  const completion: ChatCompletionResponse = {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1700000000,
    model: 'gamma-2.5-flash',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: 'Reading it now.',
          reasoning_content: 'The user wants the file.',
          tool_calls: [
            { id: 'call_a', type: 'function', function: { name: 'exec_command', arguments: '{"cmd":"cat notes.txt"}' } },
            { id: 'call_b', type: 'function', function: { name: 'apply_patch', arguments: '{"input":"*** Begin Patch"}' } },
            { id: 'call_c', type: 'function', function: { name: 'multi_agent_v1__close_agent', arguments: '{"target":"a1"}' } },
          ],
        },
        finish_reason: 'tool_calls',
      },
    ],
    usage: {
      prompt_tokens: 120,
      completion_tokens: 40,
      total_tokens: 160,
      prompt_tokens_details: { cached_tokens: 100 },
      completion_tokens_details: { reasoning_tokens: 6 },
    },
  };

  it('translates a whole answer: reasoning summary, message, function, custom and namespaced calls, usage', () => {
    const res = responsesResponseSchema.parse(chatToResponsesResponse(completion, context({ reasoning: { summary: 'auto' } })));
    expect(res).toMatchObject({ id: 'resp_abc', object: 'response', status: 'completed', model: 'gamma-2.5-flash', error: null });
    expect(res.output).toEqual([
      { type: 'reasoning', id: 'rs_abc_0', summary: [{ type: 'summary_text', text: 'The user wants the file.' }], status: 'completed' },
      {
        type: 'message',
        id: 'msg_abc_1',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Reading it now.', annotations: [] }],
      },
      {
        type: 'function_call',
        id: 'fc_abc_2',
        call_id: 'call_a',
        name: 'exec_command',
        arguments: '{"cmd":"cat notes.txt"}',
        status: 'completed',
      },
      { type: 'custom_tool_call', id: 'ctc_abc_3', call_id: 'call_b', name: 'apply_patch', input: '*** Begin Patch', status: 'completed' },
      {
        type: 'function_call',
        id: 'fc_abc_4',
        call_id: 'call_c',
        name: 'close_agent',
        namespace: 'multi_agent_v1',
        arguments: '{"target":"a1"}',
        status: 'completed',
      },
    ]);
    expect(res.usage).toEqual({
      input_tokens: 120,
      input_tokens_details: { cached_tokens: 100 },
      output_tokens: 40,
      output_tokens_details: { reasoning_tokens: 6 },
      total_tokens: 160,
    });
  });

  it('keeps reasoning out of sight unless a summary was asked, and marks a cut answer incomplete', () => {
    const cut = { ...completion, choices: [{ ...completion.choices[0], finish_reason: 'length' as const }] };
    const res = chatToResponsesResponse(cut, context());
    expect(res.output[0]).toEqual({ type: 'reasoning', id: 'rs_abc_0', summary: [], status: 'completed' });
    expect(res).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
    // The item being written when the answer was cut is incomplete; those before it are complete.
    expect(res.output.map((i) => i.status)).toEqual(['completed', 'completed', 'completed', 'completed', 'incomplete']);
    const text = {
      ...completion.choices[0],
      message: { role: 'assistant' as const, content: 'Reading it' },
      finish_reason: 'length' as const,
    };
    expect(chatToResponsesResponse({ ...completion, choices: [text] }, context()).output).toEqual([
      {
        type: 'message',
        id: 'msg_abc_0',
        role: 'assistant',
        status: 'incomplete',
        content: [{ type: 'output_text', text: 'Reading it', annotations: [] }],
      },
    ]);
  });

  it('streams a cut answer: its last item is done as incomplete, the response ends incomplete with the same output', () => {
    const stream = new ChatToResponsesStream(context());
    const chunk = (delta: ChatCompletionChunk['choices'][number]['delta'], finish: 'length' | null = null) => ({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk' as const,
      created: 1700000000,
      model: 'gamma-2.5-flash',
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const evs = [
      ...stream.push(chunk({ role: 'assistant', reasoning_content: 'Thinking.' })),
      ...stream.push(chunk({ content: 'Reading it' })),
      ...stream.push(chunk({}, 'length')),
      ...stream.end(),
    ];
    const done = evs.filter((e) => e.type === 'response.output_item.done').map((e) => (e as { item: { status: string } }).item.status);
    expect(done).toEqual(['completed', 'incomplete']);
    const last = evs.at(-1) as Extract<ResponsesStreamEvent, { type: 'response.incomplete' }>;
    expect(last.type).toBe('response.incomplete');
    expect(last.response.output.map((i) => i.status)).toEqual(['completed', 'incomplete']);
  });

  it('ends a stream the upstream broke off with response.failed: the response so far, open items incomplete, then the error', async () => {
    const cut = new GatewayError({ status: 502, code: 'upstream_error', message: 'upstream stream ended unexpectedly' });
    async function* brokenOff(): AsyncGenerator<ChatCompletionChunk> {
      let n = 0;
      for await (const chunk of chunks()) {
        if (chunk.choices[0]?.delta.tool_calls && ++n > 1) throw cut; // inside the tool call's arguments
        yield chunk;
      }
    }
    const out: ResponsesStreamEvent[] = [];
    const run = (async () => {
      for await (const ev of chatChunksToResponsesEvents(brokenOff(), context())) out.push(responsesStreamEventSchema.parse(ev));
    })();
    await expect(run).rejects.toBe(cut); // the error goes on, for the usage and the logs
    const last = out.at(-1) as Extract<ResponsesStreamEvent, { type: 'response.failed' }>;
    expect(last).toMatchObject({ type: 'response.failed', sequence_number: out.length - 1 });
    expect(last.response).toMatchObject({
      id: 'resp_abc',
      model: 'gamma-2.5-flash',
      created_at: 1700000000,
      status: 'failed',
      error: { code: 'server_error', message: 'upstream stream ended unexpectedly' },
    });
    expect(last.response.output.map((i) => [i.type, i.status])).toEqual([
      ['reasoning', 'completed'],
      ['message', 'completed'],
      ['function_call', 'incomplete'],
    ]);
  });

  it('leaves a failure before the first event to the caller (fail over, or an HTTP error)', async () => {
    const refused = new GatewayError({ status: 503, code: 'upstream_error', message: 'overloaded' });
    // eslint-disable-next-line require-yield
    async function* none(): AsyncGenerator<ChatCompletionChunk> {
      throw refused;
    }
    const out: unknown[] = [];
    await expect(
      (async () => {
        for await (const ev of chatChunksToResponsesEvents(none(), context())) out.push(ev);
      })(),
    ).rejects.toBe(refused);
    expect(out).toEqual([]);
  });

  it('streams the typed event sequence, numbered, ending with the same response as the whole answer', async () => {
    const ctx = context({ reasoning: { summary: 'auto' } });
    const evs = await events(ctx);
    expect(evs.map((e) => e.sequence_number)).toEqual(evs.map((_, i) => i));
    expect(evs.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added', // reasoning
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added', // message
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added', // exec_command
      'response.function_call_arguments.delta',
      'response.output_item.added', // apply_patch (custom: its input goes out whole at the end)
      'response.function_call_arguments.delta', // interleaved fragment of exec_command
      'response.output_item.added', // close_agent
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.custom_tool_call_input.delta',
      'response.custom_tool_call_input.done',
      'response.output_item.done',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const completed = evs.at(-1) as Extract<ResponsesStreamEvent, { type: 'response.completed' }>;
    const whole = chatToResponsesResponse(completion, ctx);
    const { created_at: _a, completed_at: _b, ...streamed } = completed.response;
    const { created_at: _c, completed_at: _d, ...expected } = whole;
    expect(streamed).toEqual(expected);
    const text = evs.filter((e) => e.type === 'response.output_text.delta').map((e) => (e as { delta: string }).delta);
    expect(text.join('')).toBe('Reading it now.');
  });

  it('starts with the created response, empty and in progress', async () => {
    const [created] = await events(context());
    expect(created).toMatchObject({
      type: 'response.created',
      response: { id: 'resp_abc', status: 'in_progress', output: [], usage: null },
    });
  });
});
