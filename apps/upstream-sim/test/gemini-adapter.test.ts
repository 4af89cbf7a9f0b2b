/** The gateway's Gemini adapter (packages/providers) against the simulator's Gemini endpoint. */
import { GatewayError, type Channel, type ChatCompletionChunk } from '@unigate/contracts';
import { HttpClient } from '@unigate/providers';
import { chatAdapter } from './chat-adapter';
import { createSimulator, type Simulator } from '../src';

// Response bodies here are whatever the simulator sent; tests inspect them loosely.
const json = (r: Response): Promise<any> => r.json(); // eslint-disable-line @typescript-eslint/no-explicit-any
let sim: Simulator;
let http: HttpClient;
let channel: Channel;

beforeAll(async () => {
  sim = await createSimulator({ tokenDelayMs: 0 });
  http = new HttpClient();
  channel = {
    id: 'sim',
    protocol: 'gemini-generate',
    base_url: sim.url,
    api_key: 'AIza-channel',
    upstream_model: 'gamma-2.5-pro',
    priority: 0,
    weight: 1,
  };
});
afterAll(async () => {
  await http.close();
  await sim.close();
});
afterEach(() => fetch(`${sim.url}/_sim/faults`, { method: 'DELETE' }));

const body = { model: 'client-alias', messages: [{ role: 'user' as const, content: 'Adapter round trip' }] };
const fault = (rule: unknown) =>
  fetch(`${sim.url}/_sim/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rule) });

async function collect(it: AsyncIterable<ChatCompletionChunk>) {
  const chunks: ChatCompletionChunk[] = [];
  try {
    for await (const c of it) chunks.push(c);
    return { chunks, error: undefined as unknown };
  } catch (error) {
    return { chunks, error };
  }
}

it('completes and streams the same answer with the same usage, reasoning included', async () => {
  const provider = chatAdapter('gemini-generate', http);
  const request = { ...body, reasoning_effort: 'medium' };
  const whole = await provider.complete(channel, request);
  expect(whole.model).toBe('client-alias');
  expect(whole.choices[0].message.reasoning_content!.length).toBeGreaterThan(0);
  expect(whole.usage.completion_tokens_details!.reasoning_tokens).toBeGreaterThan(0);

  const { chunks, error } = await collect(provider.stream(channel, { ...request, stream: true }));
  expect(error).toBeUndefined();
  expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe(whole.choices[0].message.content);
  expect(chunks.map((c) => c.choices[0]?.delta.reasoning_content ?? '').join('')).toBe(whole.choices[0].message.reasoning_content);
  expect(chunks[chunks.length - 1].usage).toEqual(whole.usage);

  const sent = await fetch(`${sim.url}/_sim/requests?last=1`).then(json);
  expect(sent.data[0].path).toBe('/v1beta/models/gamma-2.5-pro:streamGenerateContent?alt=sse');
  expect(sent.data[0].headers['x-goog-api-key']).toBe('AIza-channel');
});

it('round-trips a tool call: tool_calls out, the tool result in, a text answer quoting it back', async () => {
  const provider = chatAdapter('gemini-generate', http);
  const tools = [
    {
      type: 'function' as const,
      function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    },
  ];
  // The simulated model calls a tool the question names (shared/agent-turn.ts).
  const asking = { ...body, messages: [{ role: 'user' as const, content: 'Weather in Paris?' }] };
  const first = await provider.complete(channel, { ...asking, tools });
  const call = first.choices[0].message.tool_calls![0];
  expect(first.choices[0].finish_reason).toBe('tool_calls');
  expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Paris' });
  const second = await provider.complete(channel, {
    ...body,
    tools,
    messages: [
      ...asking.messages,
      { role: 'assistant', content: null, tool_calls: [call] },
      { role: 'tool', tool_call_id: call.id, content: 'sunny' },
    ],
  });
  expect(second.choices[0].finish_reason).toBe('stop');
  expect(second.choices[0].message.content).toMatch(/^The tool returned: "sunny"/);
});

it('surfaces a simulated 503 as a retryable upstream error', async () => {
  await fault({ status: 503, count: 1 });
  const err = await chatAdapter('gemini-generate', http)
    .complete(channel, body)
    .catch((e) => e);
  expect(err).toBeInstanceOf(GatewayError);
  expect(err).toMatchObject({ status: 503, retryable: true });
});

it('yields what came and then fails non-retryably when the stream is cut', async () => {
  await fault({ cut_after_chunks: 2, count: 1 });
  const { chunks, error } = await collect(chatAdapter('gemini-generate', http).stream(channel, body));
  expect(chunks).toHaveLength(2);
  expect(error).toMatchObject({ status: 502, retryable: false });
});
