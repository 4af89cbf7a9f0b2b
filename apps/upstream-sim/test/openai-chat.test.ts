/** The OpenAI chat simulator driven by the official openai client, as the gateway's tests will. */
import OpenAI from 'openai';
import { countTextTokens } from '@unigate/contracts';
import { createSimulator, type Simulator } from '../src';

// Response bodies here are whatever the simulator sent; tests inspect them loosely.
// Bodies are checked field by field; their static type is deliberately loose.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = (r: Response): Promise<any> => r.json();
let sim: Simulator;
let client: OpenAI;

beforeAll(async () => {
  sim = await createSimulator({ tokenDelayMs: 1 });
  client = new OpenAI({ baseURL: `${sim.url}/v1`, apiKey: 'sk-sim-test', maxRetries: 0 });
});
afterAll(() => sim.close());

const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: {
      type: 'object',
      properties: {
        city: { type: 'string' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        days: { type: 'integer', minimum: 1, maximum: 7 },
        detailed: { type: 'boolean' },
      },
      required: ['city', 'unit', 'days'],
    },
  },
};

async function collect(stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>) {
  const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
  for await (const c of stream) chunks.push(c);
  return chunks;
}

describe('POST /v1/chat/completions (non-stream)', () => {
  it('answers with deterministic text and exact usage', async () => {
    const messages = [{ role: 'user' as const, content: 'Tell me about rivers.' }];
    const a = await client.chat.completions.create({ model: 'sim-chat', messages });
    const b = await client.chat.completions.create({ model: 'sim-chat', messages, temperature: 1.7 });
    const text = a.choices[0].message.content!;
    expect(a.object).toBe('chat.completion');
    expect(a.model).toBe('sim-chat');
    expect(a.id).toMatch(/^chatcmpl-/);
    expect(b.choices[0].message.content).toBe(text);
    expect(a.choices[0].finish_reason).toBe('stop');
    expect(a.usage!.completion_tokens).toBe(countTextTokens(text));
    expect(a.usage!.completion_tokens).toBeGreaterThanOrEqual(20);
    expect(a.usage!.prompt_tokens).toBe(3 + 3 + 5); // reply priming + one message + 5 tokens
    expect(a.usage!.total_tokens).toBe(a.usage!.prompt_tokens + a.usage!.completion_tokens);

    const other = await client.chat.completions.create({ model: 'sim-chat', messages: [{ role: 'user', content: 'Something else' }] });
    expect(other.choices[0].message.content).not.toBe(text);
  });

  it('stops at max_tokens with finish_reason length', async () => {
    const r = await client.chat.completions.create({
      model: 'sim-chat',
      messages: [{ role: 'user', content: 'long please' }],
      max_tokens: 5,
    });
    expect(r.choices[0].finish_reason).toBe('length');
    expect(r.usage!.completion_tokens).toBe(5);
    expect(countTextTokens(r.choices[0].message.content!)).toBe(5);
    const r2 = await client.chat.completions.create({
      model: 'sim-chat',
      messages: [{ role: 'user', content: 'long please' }],
      max_completion_tokens: 3,
    });
    expect(r2.usage!.completion_tokens).toBe(3);
  });

  it('honours stop sequences', async () => {
    const messages = [{ role: 'user' as const, content: 'stop test' }];
    const full = (await client.chat.completions.create({ model: 'sim-chat', messages })).choices[0].message.content!;
    const stop = full.split(' ')[3];
    const r = await client.chat.completions.create({ model: 'sim-chat', messages, stop: [stop] });
    expect(r.choices[0].message.content).toBe(full.slice(0, full.indexOf(stop)));
    expect(r.choices[0].finish_reason).toBe('stop');
  });

  it('calls the tool with arguments that fit its schema', async () => {
    const r = await client.chat.completions.create({
      model: 'sim-chat',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [weatherTool, { type: 'function', function: { name: 'other', parameters: { type: 'object' } } }],
    });
    const choice = r.choices[0];
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    const call = choice.message.tool_calls![0] as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
    expect(call.id).toMatch(/^call_/);
    expect(call.type).toBe('function');
    expect(call.function.name).toBe('get_weather');
    const args = JSON.parse(call.function.arguments);
    expect(typeof args.city).toBe('string');
    expect(['celsius', 'fahrenheit']).toContain(args.unit);
    expect(Number.isInteger(args.days) && args.days >= 1 && args.days <= 7).toBe(true);
    expect(r.usage!.completion_tokens).toBe(countTextTokens('get_weather') + countTextTokens(call.function.arguments));
  });

  it('calls the tool tool_choice names, and none when tool_choice is none', async () => {
    const messages = [{ role: 'user' as const, content: 'hi' }];
    const tools = [
      weatherTool,
      {
        type: 'function' as const,
        function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } },
      },
    ];
    const named = await client.chat.completions.create({
      model: 'm',
      messages,
      tools,
      tool_choice: { type: 'function', function: { name: 'lookup' } },
    });
    const call = named.choices[0].message.tool_calls![0] as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
    expect(call.function.name).toBe('lookup');
    expect(typeof JSON.parse(call.function.arguments).q).toBe('string');

    const none = await client.chat.completions.create({ model: 'm', messages, tools, tool_choice: 'none' });
    expect(none.choices[0].finish_reason).toBe('stop');
    expect(typeof none.choices[0].message.content).toBe('string');
  });

  it('answers a tool result in text that quotes it', async () => {
    const r = await client.chat.completions.create({
      model: 'sim-chat',
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'Sunny and 21 degrees in Paris' },
      ],
    });
    expect(r.choices[0].finish_reason).toBe('stop');
    expect(r.choices[0].message.content).toContain('Sunny and 21 degrees in Paris');
  });

  it('answers json_object with a JSON object', async () => {
    const r = await client.chat.completions.create({
      model: 'sim-chat',
      messages: [{ role: 'user', content: 'JSON please' }],
      response_format: { type: 'json_object' },
    });
    const parsed = JSON.parse(r.choices[0].message.content!);
    expect(parsed).toEqual(expect.any(Object));
    expect(Array.isArray(parsed)).toBe(false);
  });

  it('answers json_schema with JSON that fits the schema', async () => {
    const schema = {
      type: 'object',
      properties: {
        title: { type: 'string' },
        year: { type: 'integer', minimum: 1900, maximum: 2100 },
        rating: { type: 'number' },
        available: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' } },
        author: { $ref: '#/$defs/person' },
        format: { type: 'string', enum: ['paper', 'ebook'] },
        note: { type: ['string', 'null'] },
      },
      required: ['title', 'year', 'rating', 'available', 'tags', 'author', 'format', 'note'],
      additionalProperties: false,
      $defs: {
        person: { type: 'object', properties: { name: { type: 'string' }, born: { type: 'integer' } }, required: ['name', 'born'] },
      },
    };
    const r = await client.chat.completions.create({
      model: 'sim-chat',
      messages: [{ role: 'user', content: 'A book' }],
      response_format: { type: 'json_schema', json_schema: { name: 'book', schema, strict: true } },
    });
    const v = JSON.parse(r.choices[0].message.content!);
    expect(Object.keys(v).sort()).toEqual([...schema.required].sort());
    expect(typeof v.title).toBe('string');
    expect(Number.isInteger(v.year) && v.year >= 1900 && v.year <= 2100).toBe(true);
    expect(typeof v.rating).toBe('number');
    expect(typeof v.available).toBe('boolean');
    expect(v.tags.length).toBeGreaterThan(0);
    expect(v.tags.every((t: unknown) => typeof t === 'string')).toBe(true);
    expect(typeof v.author.name).toBe('string');
    expect(Number.isInteger(v.author.born)).toBe(true);
    expect(['paper', 'ebook']).toContain(v.format);
    expect(typeof v.note).toBe('string');
  });

  it('rejects malformed bodies in OpenAI error shape', async () => {
    const err = await client.chat.completions.create({ model: 'm', messages: [] }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.status).toBe(400);
    expect(err.error).toMatchObject({ type: 'invalid_request_error', param: 'messages' });

    const res = await fetch(`${sim.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"model":',
    });
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_json', param: null });
    expect(body.error.message).toMatch(/could not parse the JSON body/);
  });
  it('takes any key a vendor takes: properties named __proto__ and constructor', async () => {
    // A plain JSON text: an object literal's `__proto__` would set its prototype, not add a key.
    const body = `{"model":"sim-chat","tool_choice":"required","messages":[{"role":"user","content":"hi"}],
      "tools":[{"type":"function","function":{"name":"set","parameters":{"type":"object",
      "properties":{"__proto__":{"type":"string"},"constructor":{"type":"object","prototype":{"type":"string"}}},
      "required":["__proto__","constructor"]}}}]}`;
    const res = await fetch(`${sim.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.status).toBe(200);
    const args = JSON.parse((await json(res)).choices[0].message.tool_calls[0].function.arguments);
    expect(Object.keys(args).sort()).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
  });
});

describe('POST /v1/chat/completions (stream)', () => {
  it('streams the same text as the non-stream answer, chunk by chunk', async () => {
    const messages = [{ role: 'user' as const, content: 'Stream me a story.' }];
    const whole = await client.chat.completions.create({ model: 'sim-chat', messages });
    const chunks = await collect(await client.chat.completions.create({ model: 'sim-chat', messages, stream: true }));

    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: '' });
    const contentChunks = chunks.filter((c) => c.choices[0]?.delta.content);
    expect(contentChunks.length).toBeGreaterThan(3);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe(whole.choices[0].message.content);
    expect(chunks[chunks.length - 1].choices[0].finish_reason).toBe('stop');
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(new Set(chunks.map((c) => c.created)).size).toBe(1);
    expect(chunks.every((c) => c.usage === undefined)).toBe(true); // no include_usage, no usage field
  });

  it('sends the usage chunk with empty choices when include_usage is set', async () => {
    const messages = [{ role: 'user' as const, content: 'usage please' }];
    const whole = await client.chat.completions.create({ model: 'sim-chat', messages, max_tokens: 7 });
    const chunks = await collect(
      await client.chat.completions.create({
        model: 'sim-chat',
        messages,
        max_tokens: 7,
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    const last = chunks[chunks.length - 1];
    expect(last.choices).toEqual([]);
    expect(last.usage).toEqual(whole.usage);
    expect(last.usage!.completion_tokens).toBe(7);
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
    expect(chunks[chunks.length - 2].choices[0].finish_reason).toBe('length');
  });

  it('streams a tool call as fragments with id, type and name only in the first', async () => {
    const messages = [{ role: 'user' as const, content: 'Weather in Paris?' }];
    const whole = await client.chat.completions.create({ model: 'sim-chat', messages, tools: [weatherTool] });
    const chunks = await collect(await client.chat.completions.create({ model: 'sim-chat', messages, tools: [weatherTool], stream: true }));
    const fragments = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(fragments.length).toBeGreaterThan(2);
    expect(fragments[0]).toMatchObject({ index: 0, type: 'function', function: { name: 'get_weather', arguments: '' } });
    expect(fragments[0].id).toMatch(/^call_/);
    for (const f of fragments.slice(1)) {
      expect(f.index).toBe(0);
      expect(f.id).toBeUndefined();
      expect(f.function?.name).toBeUndefined();
    }
    const wholeCall = whole.choices[0].message.tool_calls![0] as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
    expect(fragments.map((f) => f.function?.arguments ?? '').join('')).toBe(wholeCall.function.arguments);
    expect(fragments[0].id).toBe(wholeCall.id);
    expect(chunks[chunks.length - 1].choices[0].finish_reason).toBe('tool_calls');
  });

  it('writes real SSE ending in data: [DONE]', async () => {
    const res = await fetch(`${sim.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'raw' }], stream: true, max_tokens: 4 }),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await res.text();
    const events = text.split('\n\n').filter(Boolean);
    expect(events.every((e) => e.startsWith('data: '))).toBe(true);
    expect(events[events.length - 1]).toBe('data: [DONE]');
  });
});

describe('reasoning models', () => {
  it('stream reasoning_content before the content, the same as the non-stream message', async () => {
    const messages = [{ role: 'user' as const, content: 'Think first.' }];
    const whole = await client.chat.completions.create({ model: 'sim-reasoner', messages });
    const message = whole.choices[0].message as (typeof whole.choices)[0]['message'] & { reasoning_content?: string };
    expect(message.reasoning_content!.length).toBeGreaterThan(0);
    expect(whole.usage!.completion_tokens_details!.reasoning_tokens).toBe(countTextTokens(message.reasoning_content!));
    expect(whole.usage!.completion_tokens).toBe(countTextTokens(message.reasoning_content!) + countTextTokens(message.content!));

    const chunks = await collect(await client.chat.completions.create({ model: 'sim-reasoner', messages, stream: true }));
    const deltas = chunks.map((c) => c.choices[0]?.delta as { reasoning_content?: string; content?: string | null } | undefined);
    const firstContent = deltas.findIndex((d) => d?.content);
    const lastReasoning = deltas.map((d) => !!d?.reasoning_content).lastIndexOf(true);
    expect(lastReasoning).toBeLessThan(firstContent);
    expect(deltas.map((d) => d?.reasoning_content ?? '').join('')).toBe(message.reasoning_content);
    expect(deltas.map((d) => d?.content ?? '').join('')).toBe(message.content);
  });
});

describe('GET /v1/models', () => {
  it('lists models in OpenAI shape', async () => {
    const page = await client.models.list();
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data[0]).toMatchObject({ object: 'model', owned_by: expect.any(String), created: expect.any(Number) });
  });
});
