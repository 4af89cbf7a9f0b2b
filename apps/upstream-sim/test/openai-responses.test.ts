/**
 * The Responses simulator driven by the official openai client (as a Responses-native upstream is),
 * and the gateway's native Responses adapter against it.
 */
import OpenAI from 'openai';
import { responsesStreamEventSchema, type Channel, type ModelInfo } from '@unigate/contracts';
import { HttpClient, SERVICE_ENDPOINTS } from '@unigate/providers';
import { createSimulator, type Simulator } from '../src';
import { chatAdapter } from './chat-adapter';

let sim: Simulator;
let client: OpenAI;
let http: HttpClient;

beforeAll(async () => {
  sim = await createSimulator({ tokenDelayMs: 1 });
  client = new OpenAI({ baseURL: `${sim.url}/v1`, apiKey: 'sk-sim-test', maxRetries: 0 });
  http = new HttpClient();
});
afterAll(async () => {
  await http.close();
  await sim.close();
});

const readTool: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'exec_command',
  description: 'Runs a command in a PTY.',
  strict: false,
  parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'], additionalProperties: false },
};

/** A Responses channel to the simulator. */
const channel = (): Channel => ({
  id: 'sim',
  protocol: 'openai-responses',
  base_url: `${sim.url}/v1`,
  api_key: '',
  upstream_model: 'sim-resp',
  priority: 0,
  weight: 1,
});

describe('POST /v1/responses', () => {
  it('answers with a message, the same text streamed as whole, and usage', async () => {
    const whole = await client.responses.create({ model: 'sim-resp', input: 'Describe a quiet harbor' });
    expect(whole.object).toBe('response');
    expect(whole.status).toBe('completed');
    expect(whole.output_text.length).toBeGreaterThan(0);
    expect(whole.usage!.input_tokens).toBeGreaterThan(0);

    const stream = client.responses.stream({ model: 'sim-resp', input: 'Describe a quiet harbor' });
    const types: string[] = [];
    for await (const ev of stream) {
      types.push(ev.type);
      expect(responsesStreamEventSchema.safeParse(ev).success).toBe(true);
    }
    const final = await stream.finalResponse();
    expect(final.output_text).toBe(whole.output_text);
    expect(final.usage).toEqual(whole.usage);
    expect(types.slice(0, 4)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
    ]);
    expect(types.at(-1)).toBe('response.completed');
  });

  it('runs a command the user asks for, then answers the output quoting it', async () => {
    const first = await client.responses.create({ model: 'sim-resp', input: 'Run `ls /srv` for me', tools: [readTool] });
    const call = first.output.find((o): o is OpenAI.Responses.ResponseFunctionToolCall => o.type === 'function_call')!;
    expect(call).toMatchObject({ name: 'exec_command' });
    expect(JSON.parse(call.arguments)).toEqual({ cmd: 'ls /srv' });
    const second = await client.responses.create({
      model: 'sim-resp',
      tools: [readTool],
      input: [
        { role: 'user', content: 'Run `ls /srv` for me' },
        call,
        { type: 'function_call_output', call_id: call.call_id, output: 'backups\nwww' },
      ],
    });
    expect(second.output_text).toContain('backups www');
  });

  it('shows reasoning as a summary when asked', async () => {
    const res = await client.responses.create({
      model: 'sim-resp',
      input: 'Why is the sky blue?',
      reasoning: { effort: 'low', summary: 'auto' },
    });
    const reasoning = res.output.find((o): o is OpenAI.Responses.ResponseReasoningItem => o.type === 'reasoning')!;
    expect(reasoning.summary[0].text.length).toBeGreaterThan(0);
    expect(res.usage!.output_tokens_details.reasoning_tokens).toBeGreaterThan(0);
  });

  it('answers an invalid request in OpenAI’s error shape', async () => {
    const err = await client.responses.create({ model: 'sim-resp', input: [{ role: 'tool', content: 'x' }] } as never).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
  });
});

describe('the native responses adapter against the simulator', () => {
  const MODEL: ModelInfo = {
    id: 'delta-5',
    family: 'delta',
    kind: 'chat',
    owned_by: 'delta',
    created: 1,
    prices: { input_per_mtok: 1, output_per_mtok: 1 },
  };
  const adapter = () => SERVICE_ENDPOINTS.find((e) => e.spec.name === 'responses')!.adapter('openai-responses', http)!;
  const ctx = () => ({
    signal: new AbortController().signal,
    request_id: 'req_1',
    account_id: 'acct_1',
    tier: 'paid' as const,
    options: {},
    files: [],
    model: MODEL,
  });

  it('streams the upstream’s events with the client’s model, measured by the upstream’s usage', async () => {
    const stream = adapter().stream!(channel(), { model: 'delta-5', input: 'Count the waves' }, ctx());
    const events = [];
    for await (const ev of stream) events.push(ev);
    const done = events.at(-1);
    expect(done).toMatchObject({ type: 'response.completed', response: { model: 'delta-5' } });
    const usage = (done as { response: { usage: { input_tokens: number; output_tokens: number } } }).response.usage;
    expect(stream.usage()).toEqual({ input_tokens: usage.input_tokens, cached_input_tokens: 0, output_tokens: usage.output_tokens });
  });

  it('fails over on a simulated 503 before anything was sent', async () => {
    await fetch(`${sim.url}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ match: { path: '/v1/responses' }, status: 503, count: 1 }),
    });
    const err = await adapter()
      .call(channel(), { model: 'delta-5', input: 'hi' }, ctx())
      .catch((e) => e);
    expect(err).toMatchObject({ status: 503, retryable: true });
  });
});

describe('the chat adapter on a Responses channel (chat completions and messages on a Responses-only model)', () => {
  const weather = [
    {
      type: 'function' as const,
      function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    },
  ];

  it('answers, streams the same text with a usage chunk, and round-trips a tool call', async () => {
    const chat = chatAdapter('openai-responses', http);
    const body = { model: 'delta-5', messages: [{ role: 'user' as const, content: 'Describe the tide' }] };
    const whole = await chat.complete(channel(), body);
    expect(whole.model).toBe('delta-5');
    expect(whole.choices[0]).toMatchObject({ finish_reason: 'stop', message: { role: 'assistant' } });
    const chunks = [];
    for await (const c of chat.stream(channel(), { ...body, stream: true })) chunks.push(c);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe(whole.choices[0].message.content);
    expect(chunks.at(-1)!.usage).toEqual(whole.usage);

    const asking = { model: 'delta-5', tools: weather, messages: [{ role: 'user' as const, content: 'Weather in Paris?' }] };
    const first = await chat.complete(channel(), asking);
    const call = first.choices[0].message.tool_calls![0];
    expect(first.choices[0].finish_reason).toBe('tool_calls');
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Paris' });
    const second = await chat.complete(channel(), {
      ...asking,
      messages: [
        ...asking.messages,
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: call.id, content: 'Sunny' },
      ],
    });
    expect(second.choices[0].message.content).toContain('Sunny');
  });
});
