/** The Anthropic Messages simulator driven by the official @anthropic-ai/sdk, as the gateway's tests will. */
import Anthropic from '@anthropic-ai/sdk';
import { countTextTokens } from '@unigate/contracts';
import { createSimulator, type Simulator } from '../src';
import { json } from './chat-adapter';

let sim: Simulator;
let client: Anthropic;

beforeAll(async () => {
  sim = await createSimulator({ tokenDelayMs: 1 });
  client = new Anthropic({ baseURL: sim.url, apiKey: 'sk-ant-sim-test', maxRetries: 0 });
});
afterAll(() => sim.close());
afterEach(async () => {
  await fetch(`${sim.url}/_sim/faults`, { method: 'DELETE' });
});

const setFault = (rule: unknown) =>
  fetch(`${sim.url}/_sim/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rule) });
const lastRequest = async () => (await json(await fetch(`${sim.url}/_sim/requests?last=1`))).data[0];

const weatherTool: Anthropic.Tool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  input_schema: {
    type: 'object',
    properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 7 } },
    required: ['city', 'days'],
  },
};

/** The raw SSE of a streamed request: event names in order, and the parsed payloads. */
async function rawStream(body: object, headers: Record<string, string> = {}) {
  const res = await fetch(`${sim.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': 'k', ...headers },
    body: JSON.stringify({ ...body, stream: true }),
  });
  // Read what arrives; a cut stream ends with a socket error after the last event written.
  let text = '';
  const decoder = new TextDecoder();
  try {
    for await (const part of res.body as unknown as AsyncIterable<Uint8Array>) text += decoder.decode(part, { stream: true });
  } catch {
    // cut by a fault
  }
  const events = text
    .split('\n\n')
    .filter(Boolean)
    .map((block) => {
      const name = /^event: (.+)$/m.exec(block)![1];
      const data = JSON.parse(/^data: (.+)$/m.exec(block)![1]);
      expect(data.type).toBe(name);
      return data;
    });
  return { res, events, names: events.map((e) => e.type as string) };
}

describe('POST /v1/messages (non-stream)', () => {
  it('answers the same text as the OpenAI endpoint for the same prompt, with exact usage', async () => {
    const messages = [{ role: 'user' as const, content: 'Tell me about rivers.' }];
    const { data: msg, response } = await client.messages.create({ model: 'sim-sigma', max_tokens: 200, messages }).withResponse();
    expect(response.headers.get('request-id')).toMatch(/^req_/);
    expect(msg).toMatchObject({ type: 'message', role: 'assistant', model: 'sim-sigma', stop_reason: 'end_turn', stop_sequence: null });
    expect(msg.id).toMatch(/^msg_/);
    expect(msg.content).toHaveLength(1);
    const text = (msg.content[0] as Anthropic.TextBlock).text;
    const sent = await lastRequest();
    expect(sent.headers.authorization).toBe('Bearer sk-ant-sim-test'); // the 1.x SDK sends Bearer

    const chat = await json(
      await fetch(`${sim.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'sim-chat', messages }),
      }),
    );
    expect(text).toBe(chat.choices[0].message.content);
    expect(msg.usage).toEqual({
      input_tokens: chat.usage.prompt_tokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
      output_tokens: countTextTokens(text),
    });
  });

  it('stops at max_tokens, and at a stop sequence naming it', async () => {
    const messages = [{ role: 'user' as const, content: 'long please' }];
    const capped = await client.messages.create({ model: 'm', max_tokens: 5, messages });
    expect(capped.stop_reason).toBe('max_tokens');
    expect(capped.usage.output_tokens).toBe(5);

    const full = ((await client.messages.create({ model: 'm', max_tokens: 500, messages })).content[0] as Anthropic.TextBlock).text;
    const stop = ` ${full.split(' ')[3]}`;
    const stopped = await client.messages.create({ model: 'm', max_tokens: 500, messages, stop_sequences: ['zzz-never', stop] });
    expect(stopped.stop_reason).toBe('stop_sequence');
    expect(stopped.stop_sequence).toBe(stop);
    expect((stopped.content[0] as Anthropic.TextBlock).text).toBe(full.slice(0, full.indexOf(stop)));
  });

  it('calls a tool with input fitting its schema, then answers the tool_result in text', async () => {
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const first = await client.messages.create({ model: 'm', max_tokens: 300, messages, tools: [weatherTool] });
    expect(first.stop_reason).toBe('tool_use');
    const use = first.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
    expect(use.id).toMatch(/^toolu_/);
    expect(use.name).toBe('get_weather');
    expect(typeof (use.input as { city: unknown }).city).toBe('string');
    expect((use.input as { days: number }).days).toBeGreaterThanOrEqual(1);

    messages.push({ role: 'assistant', content: first.content as Anthropic.ContentBlockParam[] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'Sunny and 21 degrees' }] });
    const second = await client.messages.create({ model: 'm', max_tokens: 300, messages, tools: [weatherTool] });
    expect(second.stop_reason).toBe('end_turn');
    expect((second.content[0] as Anthropic.TextBlock).text).toContain('Sunny and 21 degrees');

    const none = await client.messages.create({
      model: 'm',
      max_tokens: 300,
      messages: [{ role: 'user', content: 'hi' }],
      tools: [weatherTool],
      tool_choice: { type: 'none' },
    });
    expect(none.stop_reason).toBe('end_turn');
  });

  it('thinks first when thinking is enabled, signing the block', async () => {
    const msg = await client.messages.create({
      model: 'm',
      max_tokens: 2000,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [{ role: 'user', content: 'Think, then answer.' }],
    });
    expect(msg.content.map((b) => b.type)).toEqual(['thinking', 'text']);
    const thinking = msg.content[0] as Anthropic.ThinkingBlock;
    expect(thinking.signature.length).toBeGreaterThan(10);
    expect(msg.usage.output_tokens).toBe(
      countTextTokens(thinking.thinking) + countTextTokens((msg.content[1] as Anthropic.TextBlock).text),
    );
  });

  it('caches a marked prefix of 1024+ tokens: a write first, then a read', async () => {
    const system: Anthropic.TextBlockParam[] = [{ type: 'text', text: 'policy '.repeat(1100), cache_control: { type: 'ephemeral' } }];
    const ask = (content: string) =>
      client.messages.create({ model: 'cache-test', max_tokens: 50, system, messages: [{ role: 'user', content }] });
    const first = await ask('first question');
    expect(first.usage.cache_creation_input_tokens).toBe(3 + 1100);
    expect(first.usage.cache_read_input_tokens).toBe(0);
    const second = await ask('second question');
    expect(second.usage.cache_read_input_tokens).toBe(3 + 1100);
    expect(second.usage.cache_creation_input_tokens).toBe(0);
    expect(second.usage.input_tokens).toBe(3 + 3 + 2); // reply priming + the user turn

    const small = await client.messages.create({
      model: 'cache-test',
      max_tokens: 50,
      system: [{ type: 'text', text: 'short', cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(small.usage).toMatchObject({ cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
  });

  it('reports the writes by ttl in cache_creation: one-hour breakpoints first, then five-minute ones', async () => {
    const system: Anthropic.TextBlockParam[] = [
      { type: 'text', text: 'charter '.repeat(1100), cache_control: { type: 'ephemeral', ttl: '1h' } },
    ];
    const turn: Anthropic.MessageParam = {
      role: 'user',
      content: [{ type: 'text', text: 'context '.repeat(1100), cache_control: { type: 'ephemeral' } }],
    };
    const body = { model: 'ttl-test', max_tokens: 50, system, messages: [turn] };
    const first = await client.messages.create(body);
    expect(first.usage).toMatchObject({
      cache_creation_input_tokens: 2 * 1103,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 1103, ephemeral_1h_input_tokens: 1103 },
    });
    // Streamed, message_start carries the split.
    const events: Anthropic.RawMessageStreamEvent[] = [];
    for await (const ev of await client.messages.create({ ...body, model: 'ttl-test-2', stream: true })) events.push(ev);
    const start = events.find((e): e is Anthropic.RawMessageStartEvent => e.type === 'message_start')!;
    expect(start.message.usage.cache_creation).toEqual({ ephemeral_5m_input_tokens: 1103, ephemeral_1h_input_tokens: 1103 });
    const second = await client.messages.create(body);
    expect(second.usage).toMatchObject({
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 2 * 1103,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
    });
  });

  it('counts tokens like the usage it reports', async () => {
    const body = { model: 'm', system: 'Be brief.', messages: [{ role: 'user' as const, content: 'Count me' }], tools: [weatherTool] };
    const counted = await client.messages.countTokens(body);
    const msg = await client.messages.create({ ...body, max_tokens: 100, tool_choice: { type: 'none' } });
    expect(counted.input_tokens).toBe(msg.usage.input_tokens);
    expect(counted.input_tokens).toBe(3 + 3 + 3 + 3 + 2); // priming, system (3 + 3), user (3 + 2)
  });
});

describe('POST /v1/messages (stream)', () => {
  it('sends the exact event sequence with a ping, and the same message as non-stream', async () => {
    const body = { model: 'm', max_tokens: 300, messages: [{ role: 'user' as const, content: 'Describe a lighthouse' }] };
    const whole = await client.messages.create(body);
    const { res, events, names } = await rawStream(body);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(names.slice(0, 3)).toEqual(['message_start', 'content_block_start', 'ping']);
    expect(names.slice(-4)).toEqual(['content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    expect(events[0].message).toMatchObject({
      content: [],
      stop_reason: null,
      usage: { input_tokens: whole.usage.input_tokens, output_tokens: 1 },
    });
    expect(events.at(-2)).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: whole.usage.output_tokens },
    });

    const final = await client.messages.stream(body).finalMessage();
    expect(final.content).toEqual(whole.content);
    expect(final.usage.output_tokens).toBe(whole.usage.output_tokens);
    expect(final.usage.input_tokens).toBe(whole.usage.input_tokens);
  });

  it('streams thinking (with its signature) and a tool_use the SDK reassembles', async () => {
    const { events } = await rawStream({
      model: 'm',
      max_tokens: 3000,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      tools: [weatherTool],
      messages: [{ role: 'user', content: 'Weather?' }],
    });
    const starts = events.filter((e) => e.type === 'content_block_start');
    expect(starts.map((e) => [e.index, e.content_block.type])).toEqual([
      [0, 'thinking'],
      [1, 'tool_use'],
    ]);
    expect(events.some((e) => e.delta?.type === 'signature_delta' && e.index === 0)).toBe(true);

    const final = await client.messages
      .stream({
        model: 'm',
        max_tokens: 3000,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        tools: [weatherTool],
        messages: [{ role: 'user', content: 'Weather?' }],
      })
      .finalMessage();
    expect(final.stop_reason).toBe('tool_use');
    const use = final.content[1] as Anthropic.ToolUseBlock;
    expect(use.name).toBe('get_weather');
    expect(typeof (use.input as { city: unknown }).city).toBe('string');
  });
});

describe('auth, errors and faults', () => {
  it('accepts x-api-key and requires anthropic-version, answering in Anthropic error shape', async () => {
    const ok = await fetch(`${sim.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': 'sk-ant-key' },
      body: JSON.stringify({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(ok.status).toBe(200);
    expect((await lastRequest()).headers['x-api-key']).toBe('sk-ant-key');

    const noVersion = await fetch(`${sim.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', max_tokens: 10, messages: [] }),
    });
    expect(noVersion.status).toBe(400);
    expect(await json(noVersion)).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringMatching(/anthropic-version/) },
      request_id: expect.stringMatching(/^req_/),
    });
  });

  it('rejects an invalid body with a 400 naming the field', async () => {
    const err = await client.messages.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] } as never).catch((e) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect(err.type).toBe('invalid_request_error');
    expect(err.apiMessage).toContain('max_tokens');
  });

  it('refuses empty content as Anthropic does: an empty turn but a final prefill, an empty or blank text block', async () => {
    const send = (messages: Anthropic.MessageParam[]) =>
      client.messages.create({ model: 'sigma-sonnet-4-6', max_tokens: 8, messages }).then(
        () => 'ok',
        (e: InstanceType<typeof Anthropic.APIError>) => [e.status, e.type, e.apiMessage],
      );
    const refused = (message: string) => [400, 'invalid_request_error', message];
    expect(await send([{ role: 'user', content: '' }])).toEqual(
      refused('messages.0: all messages must have non-empty content except for the optional final assistant message'),
    );
    expect(await send([{ role: 'user', content: [] }])).toEqual(
      refused('messages.0: all messages must have non-empty content except for the optional final assistant message'),
    );
    expect(
      await send([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'hi' },
            { type: 'text', text: '' },
          ],
        },
      ]),
    ).toEqual(refused('messages: text content blocks must be non-empty'));
    expect(await send([{ role: 'user', content: [{ type: 'text', text: ' \n' }] }])).toEqual(
      refused('messages: text content blocks must contain non-whitespace text'),
    );
    // A final assistant turn may be empty (a prefill of nothing).
    expect(
      await send([
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: '' },
      ]),
    ).toBe('ok');
  });

  it('injects 429 and 529 matched by path and model, in Anthropic shape', async () => {
    await setFault({ match: { path: '/v1/messages', model: 'busy' }, status: 429, count: 1 });
    await setFault({ match: { path: '/v1/messages' }, status: 529, count: 1 });
    const chatOk = await fetch(`${sim.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'busy', messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(chatOk.status).toBe(200); // the path does not match

    const rate = await client.messages
      .create({ model: 'busy', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })
      .catch((e) => e);
    expect(rate).toBeInstanceOf(Anthropic.RateLimitError);
    expect(rate.type).toBe('rate_limit_error');
    const overloaded = await client.messages
      .create({ model: 'other', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })
      .catch((e) => e);
    expect(overloaded.status).toBe(529);
    expect(overloaded.type).toBe('overloaded_error');
    await expect(
      client.messages.create({ model: 'busy', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }),
    ).resolves.toMatchObject({ type: 'message' });
  });

  it('cuts a stream after N content deltas, without message_stop', async () => {
    await setFault({ match: { path: '/v1/messages' }, cut_after_chunks: 2, count: 1 });
    const { names } = await rawStream({ model: 'm', max_tokens: 300, messages: [{ role: 'user', content: 'cut me' }] });
    expect(names).toEqual(['message_start', 'content_block_start', 'ping', 'content_block_delta', 'content_block_delta']);

    await setFault({ match: { path: '/v1/messages' }, cut_after_chunks: 1, count: 1 });
    const err = await client.messages
      .stream({ model: 'm', max_tokens: 300, messages: [{ role: 'user', content: 'cut me' }] })
      .finalMessage()
      .catch((e) => e);
    expect(err).toBeInstanceOf(Error);
  });

  it('holds the answer for latency_ms', async () => {
    await setFault({ match: { path: '/v1/messages/count_tokens' }, latency_ms: 60_000, count: 1 });
    const abort = new AbortController();
    const pending = client.messages
      .countTokens({ model: 'm', messages: [{ role: 'user', content: 'x' }] }, { signal: abort.signal })
      .catch((e) => e);
    setTimeout(() => abort.abort(), 50);
    expect(await pending).toBeInstanceOf(Anthropic.APIUserAbortError);
  });
});
