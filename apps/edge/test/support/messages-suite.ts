/**
 * POST /v1/messages end to end with the official `@anthropic-ai/sdk`: native on sigma models,
 * translated on every other chat model, with the exact event sequence, both auth headers,
 * count_tokens and Anthropic-shaped errors.
 */
import Anthropic from '@anthropic-ai/sdk';
import { Admin, eventually } from './admin';
import { readSseEvents } from './sse-events';
import type { Stack } from './stacks';
import { useStack, json } from './use-stack';

/** The answer's text block (reasoning models put a thinking block first). */
const textOf = (msg: Anthropic.Message) => msg.content.find((b): b is Anthropic.TextBlock => b.type === 'text')?.text ?? '';

/** Models that always think: their reasoning comes back as a thinking block before the text. */
const ALWAYS_THINKS = new Set(['omega-k3']);

const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'Current weather for a city',
  input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] },
};

export function messagesSuite(start: () => Promise<Stack>, models: string[]) {
  let stack: Stack;
  let client: Anthropic;
  const origin = () => stack.origin;

  useStack(start, (s) => {
    stack = s;
    client = new Anthropic({ baseURL: s.origin, apiKey: s.apiKey, maxRetries: 0 });
  });

  describe.each(models)('%s', (model) => {
    it('answers a message with text, end_turn and usage', async () => {
      const msg = await client.messages.create({
        model,
        max_tokens: 200,
        messages: [{ role: 'user', content: 'Describe a quiet harbor' }],
      });
      expect(msg.type).toBe('message');
      expect(msg.id).toMatch(/^msg_\w/); // Anthropic's form on every family, a chat upstream's answer too
      expect(msg.role).toBe('assistant');
      expect(msg.model).toBe(model);
      expect(textOf(msg).length).toBeGreaterThan(0);
      expect(msg.content[0].type).toBe(ALWAYS_THINKS.has(model) ? 'thinking' : 'text');
      expect(msg.stop_reason).toBe('end_turn');
      expect(msg.usage.input_tokens).toBeGreaterThan(0);
      expect(msg.usage.output_tokens).toBeGreaterThan(0);
    });

    it('streams the exact event sequence, with non-zero input tokens in message_start, and the same text', async () => {
      const request = { model, max_tokens: 200, messages: [{ role: 'user' as const, content: 'Describe a quiet harbor at dawn' }] };
      const whole = await client.messages.create(request);
      const res = await fetch(`${origin()}/v1/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ ...request, stream: true }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
      const events = await readSseEvents(res);
      const types = events.map((e) => e.event);
      for (const e of events) expect(JSON.parse(e.data).type).toBe(e.event);
      expect(types[0]).toBe('message_start');
      expect(types[1]).toBe('content_block_start');
      expect(types).toContain('ping');
      expect(types[types.length - 2]).toBe('message_delta');
      expect(types[types.length - 1]).toBe('message_stop');
      const start = JSON.parse(events[0].data);
      expect(start.message.model).toBe(model);
      expect(start.message.id).toMatch(/^msg_\w/);
      expect(start.message.usage.input_tokens).toBeGreaterThan(0);
      const text = events
        .filter((e) => e.event === 'content_block_delta')
        .map((e) => JSON.parse(e.data).delta)
        .filter((d) => d.type === 'text_delta')
        .map((d) => d.text)
        .join('');
      expect(text).toBe(textOf(whole));
      const delta = JSON.parse(events[events.length - 2].data);
      expect(delta.delta.stop_reason).toBe('end_turn');
      expect(delta.usage.output_tokens).toBe(whole.usage.output_tokens);
    });

    it('round-trips tool_use → tool_result through the SDK stream helper', async () => {
      const first = await client.messages
        .stream({ model, max_tokens: 300, tools: [WEATHER_TOOL], messages: [{ role: 'user', content: 'Weather in Paris?' }] })
        .finalMessage();
      expect(first.stop_reason).toBe('tool_use');
      const use = first.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
      expect(use.name).toBe('get_weather');
      expect(use.input).toHaveProperty('city');
      const second = await client.messages.create({
        model,
        max_tokens: 300,
        tools: [WEATHER_TOOL],
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '{"temp_c": 18, "sky": "cloudy"}' }] },
        ],
      });
      expect(second.stop_reason).toBe('end_turn');
      expect(textOf(second).length).toBeGreaterThan(0);
    });

    it('counts tokens', async () => {
      const r = await client.messages.countTokens({
        model,
        system: 'Be brief',
        messages: [{ role: 'user', content: 'How many tokens is this?' }],
      });
      expect(r.input_tokens).toBeGreaterThan(0);
    });
  });

  it('accepts x-api-key as Claude Code sends it, and rejects a bad key in Anthropic’s error shape', async () => {
    const viaHeader = new Anthropic({
      baseURL: stack.origin,
      apiKey: null,
      authToken: null,
      defaultHeaders: { 'x-api-key': stack.apiKey },
      maxRetries: 0,
    });
    const msg = await viaHeader.messages.create({ model: models[0], max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
    expect(msg.content.length).toBeGreaterThan(0);

    const res = await fetch(`${origin()}/v1/messages`, {
      method: 'POST',
      headers: {
        'x-api-key': 'sk-wrong-0000000000000000000000000000',
        'content-type': 'application/json',
        'anthropic-version': '2023-06-01',
      },
      body: JSON.stringify({ model: models[0], max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(401);
    const body = await json(res);
    expect(body).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    expect(typeof body.request_id).toBe('string');
  });

  it('lists and retrieves models in Anthropic’s Models API shape (models.list, models.retrieve), a page at a time', async () => {
    // The SDK sends the key as x-api-key and an anthropic-version header: every model the key may use, newest first.
    const all: Anthropic.ModelInfo[] = [];
    for await (const m of client.models.list({ limit: 2 })) all.push(m);
    expect(new Set(all.map((m) => m.id)).size).toBe(all.length);
    expect(all.map((m) => m.id)).toEqual(expect.arrayContaining(models));
    for (const m of all)
      expect(m).toMatchObject({ type: 'model', id: expect.any(String), display_name: m.id, created_at: expect.any(String) });
    const released = all.map((m) => Date.parse(m.created_at));
    expect(released).toEqual([...released].sort((a, b) => b - a));

    // The same models OpenAI clients (no anthropic-version) get in OpenAI's list.
    const openai = (await json(await fetch(`${origin()}/v1/models`, { headers: { authorization: `Bearer ${stack.apiKey}` } }))) as {
      object: string;
      data: Array<{ id: string; kind: string }>;
    };
    expect(openai.object).toBe('list');
    expect(openai.data.map((m) => m.id).sort()).toEqual(all.map((m) => m.id).sort());
    const notChat = openai.data.find((m) => m.kind !== 'chat')!.id;

    // 20 a page by default; before_id pages backwards.
    expect(all.length).toBeGreaterThan(20);
    const first = await client.models.list();
    expect(first.data).toEqual(all.slice(0, 20));
    expect(first).toMatchObject({ has_more: true, first_id: all[0].id, last_id: all[19].id });
    const back = await client.models.list({ before_id: all[4].id, limit: 2 });
    expect(back.data.map((m) => m.id)).toEqual(all.slice(2, 4).map((m) => m.id));
    expect(back.has_more).toBe(true);
    const last = await client.models.list({ after_id: all[all.length - 3].id });
    expect(last).toMatchObject({ has_more: false, last_id: all.at(-1)!.id });

    for (const id of [models[0], notChat]) expect(await client.models.retrieve(id)).toEqual(all.find((m) => m.id === id));
    // An alias, as Claude Code names its models, gives the model it stands for (as Anthropic's own API does).
    expect(await client.models.retrieve('claude-opus-5-5')).toEqual(all.find((m) => m.id === 'sigma-opus-4-7'));
    const unknown = await client.models.retrieve('no-such-model').catch((e) => e);
    expect(unknown).toBeInstanceOf(Anthropic.NotFoundError);
    expect(unknown.error).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    for (const [query, field] of [
      [{ limit: 0 }, 'limit'],
      [{ limit: 1001 }, 'limit'],
      [{ after_id: 'no-such-model' }, 'after_id'],
    ] as const) {
      const err = await client.models.list(query).catch((e) => e);
      expect(err).toBeInstanceOf(Anthropic.BadRequestError);
      expect(err.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
      expect(err.error.error.message).toContain(field);
    }
    const wrongKey = new Anthropic({ baseURL: stack.origin, apiKey: 'sk-wrong-0000000000000000000000000000', maxRetries: 0 });
    const denied = await wrongKey.models.list().catch((e) => e);
    expect(denied).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(denied.error).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });

    // A key limited to some models sees only those.
    const { key } = await new Admin(stack).fundedKey(1, { models: [models[0]] });
    const limited = new Anthropic({ baseURL: stack.origin, apiKey: key, maxRetries: 0 });
    expect((await limited.models.list()).data.map((m) => m.id)).toEqual([models[0]]);
  });

  it('answers invalid requests with 400 invalid_request_error naming the field, also for bad JSON', async () => {
    const err = await client.messages.create({ model: models[0], messages: [{ role: 'user', content: 'hi' }] } as never).catch((e) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect(err.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(err.error.error.message).toContain('max_tokens');

    const res = await fetch(`${origin()}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': stack.apiKey, 'content-type': 'application/json' },
      body: '{"model":',
    });
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    // Refused before the route's handler ran, it still carries Anthropic's request-id header.
    expect(res.headers.get('request-id')).toBe(body.request_id);

    // A body in an encoding the gateway does not read: a client error, not Anthropic's 5xx api_error.
    const encoded = await fetch(`${origin()}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': stack.apiKey, 'content-type': 'application/json', 'content-encoding': 'br-nope' },
      body: '{}',
    });
    expect(encoded.status).toBe(415);
    expect(await json(encoded)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(encoded.headers.get('request-id')).toMatch(/\S/);
  });

  it('answers an unknown model with 404 not_found_error', async () => {
    const err = await client.messages
      .create({ model: 'no-such-model', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e) => e);
    expect(err).toBeInstanceOf(Anthropic.NotFoundError);
    expect(err.error.error.type).toBe('not_found_error');
  });

  it('names the client’s own field when a translated request is refused, and says what an empty one needs', async () => {
    const translated = models.filter((m) => m.startsWith('gamma-'));
    const message = async (body: Record<string, unknown>) => {
      const err = await client.messages.create(body as never).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Anthropic.BadRequestError);
      const { error } = (err as InstanceType<typeof Anthropic.BadRequestError>).error as { error: { type: string; message: string } };
      expect(error.type).toBe('invalid_request_error');
      return error.message;
    };
    for (const model of translated) {
      const unanswered = [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'hi' },
            { type: 'tool_result', tool_use_id: 'nope', content: 'x' },
          ],
        },
      ];
      expect(await message({ model, max_tokens: 16, messages: unanswered })).toBe(
        "Invalid 'messages[0].content[1].tool_use_id': 'nope' does not answer a tool call made earlier in the conversation.",
      );
      for (const messages of [[{ role: 'user', content: [{ type: 'text', text: '' }] }], [{ role: 'system', content: 'Be brief' }]]) {
        expect(await message({ model, max_tokens: 16, system: 'Be kind', messages })).toBe(
          "Invalid 'messages': the model needs at least one user or assistant message with content besides the system instructions.",
        );
      }
    }

    for (const body of ['', '\n']) {
      const res = await fetch(`${origin()}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': stack.apiKey, 'content-type': 'application/json' },
        body,
      });
      expect(res.status).toBe(400);
      expect(await json(res)).toMatchObject({
        type: 'error',
        error: { type: 'invalid_request_error', message: 'The request body is empty: it must be a JSON object.' },
      });
    }
  });

  it('bills a messages call into the ledger like any chat call', async () => {
    const admin = new Admin(stack);
    const { accountId, key } = await admin.fundedKey(2);
    const keyed = new Anthropic({ baseURL: stack.origin, apiKey: key, maxRetries: 0 });
    const { response } = await keyed.messages
      .create({ model: models[0], max_tokens: 100, messages: [{ role: 'user', content: 'bill me' }] })
      .withResponse();
    const [entry] = await eventually(
      () => admin.usage(accountId),
      (e) => e.length === 1,
    );
    expect(entry.request_id).toBe(response.headers.get('request-id'));
    expect(entry.cost_micros).toBeGreaterThan(0);
    expect(entry.input_tokens).toBeGreaterThan(0);
    expect(entry.output_tokens).toBeGreaterThan(0);
  });

  it('bills a native call’s cache writes at the cache-write price and its cache reads at the cached price', async () => {
    const admin = new Admin(stack);
    const { accountId, key } = await admin.fundedKey(2);
    const keyed = new Anthropic({ baseURL: stack.origin, apiKey: key, maxRetries: 0 });
    const system: Anthropic.TextBlockParam[] = [{ type: 'text', text: 'house rules '.repeat(550), cache_control: { type: 'ephemeral' } }];
    const ask = async (content: string) => {
      const { data, response } = await keyed.messages
        .create({ model: 'sigma-sonnet-4-6', max_tokens: 50, system, messages: [{ role: 'user', content }] })
        .withResponse();
      return { usage: data.usage, requestId: response.headers.get('request-id') };
    };
    const first = await ask('first question');
    const second = await ask('second question');
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(1000);
    expect(second.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens);

    const entries = await eventually(
      () => admin.usage(accountId),
      (e) => e.length === 2,
    );
    // sigma-sonnet-4-6: $3 per million input, $0.30 cache read, $3.75 cache write, $15 output
    for (const { usage, requestId } of [first, second]) {
      const entry = entries.find((e) => e.request_id === requestId)!;
      const read = usage.cache_read_input_tokens ?? 0;
      const written = usage.cache_creation_input_tokens ?? 0;
      expect(entry.input_tokens).toBe(usage.input_tokens + read + written);
      expect(entry.units).toMatchObject({ cached_input_tokens: read, ...(written && { cache_write_input_tokens: written }) });
      expect(entry.cost_micros).toBe(
        Math.ceil((usage.input_tokens * 3_000_000 + read * 300_000 + written * 3_750_000 + usage.output_tokens * 15_000_000) / 1_000_000),
      );
    }
  });

  it('passes Anthropic’s split of the cache writes by ttl through, and bills one-hour writes at the one-hour price', async () => {
    const admin = new Admin(stack);
    const { accountId, key } = await admin.fundedKey(2);
    const keyed = new Anthropic({ baseURL: stack.origin, apiKey: key, maxRetries: 0 });
    // The system prompt cached for an hour, the user turn after it for five minutes: 1,103 tokens each.
    const body = (word: string): Anthropic.MessageCreateParamsNonStreaming => ({
      model: 'sigma-sonnet-4-6',
      max_tokens: 50,
      system: [{ type: 'text', text: `${word} `.repeat(1100), cache_control: { type: 'ephemeral', ttl: '1h' } }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'orders '.repeat(1100), cache_control: { type: 'ephemeral' } }] }],
    });
    const split = { ephemeral_5m_input_tokens: 1103, ephemeral_1h_input_tokens: 1103 };
    const { data, response } = await keyed.messages.create(body('charter')).withResponse();
    expect(data.usage).toMatchObject({ cache_creation_input_tokens: 2206, cache_read_input_tokens: 0, cache_creation: split });
    const stream = await keyed.messages.create({ ...body('statute'), stream: true }).withResponse();
    let started: Anthropic.Usage | undefined;
    let output = 0;
    for await (const ev of stream.data) {
      if (ev.type === 'message_start') started = ev.message.usage;
      if (ev.type === 'message_delta') output = ev.usage.output_tokens;
    }
    expect(started).toMatchObject({ cache_creation_input_tokens: 2206, cache_creation: split });

    const entries = await eventually(
      () => admin.usage(accountId),
      (e) => e.length === 2,
    );
    // sigma-sonnet-4-6: $3 per million input, $3.75 per million written for five minutes, $6 for an hour, $15 output
    const calls = [
      { usage: data.usage, requestId: response.headers.get('request-id') },
      { usage: { ...started!, output_tokens: output }, requestId: stream.response.headers.get('request-id') },
    ];
    for (const { usage, requestId } of calls) {
      const entry = entries.find((e) => e.request_id === requestId)!;
      expect(entry.input_tokens).toBe(usage.input_tokens + 2206);
      expect(entry.units).toMatchObject({ cache_write_input_tokens: 2206, cache_write_1h_input_tokens: 1103 });
      expect(entry.cost_micros).toBe(
        Math.ceil((usage.input_tokens * 3_000_000 + 1103 * 3_750_000 + 1103 * 6_000_000 + usage.output_tokens * 15_000_000) / 1e6),
      );
    }
  });
}
