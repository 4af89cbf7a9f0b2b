/** The gateway's OpenAI chat adapter (packages/providers) against the simulator: both ends agree. */
import { GatewayError, type Channel, type ChatCompletionChunk } from '@unigate/contracts';
import { HttpClient } from '@unigate/providers';
import { chatAdapter } from './chat-adapter';
import { createSimulator, type Simulator } from '../src';

// Response bodies here are whatever the simulator sent; tests inspect them loosely.
// Bodies are checked field by field; their static type is deliberately loose.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = (r: Response): Promise<any> => r.json();
let sim: Simulator;
let http: HttpClient;
let channel: Channel;

beforeAll(async () => {
  sim = await createSimulator({ tokenDelayMs: 0 });
  http = new HttpClient();
  channel = {
    id: 'sim',
    protocol: 'openai-chat',
    base_url: `${sim.url}/v1`,
    api_key: 'sk-channel',
    upstream_model: 'sim-chat',
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

async function collect(it: AsyncIterable<ChatCompletionChunk>) {
  const chunks: ChatCompletionChunk[] = [];
  try {
    for await (const c of it) chunks.push(c);
    return { chunks, error: undefined as unknown };
  } catch (error) {
    return { chunks, error };
  }
}

it('completes and streams the same answer, with measured usage on the stream', async () => {
  const provider = chatAdapter('openai-chat', http);
  const whole = await provider.complete(channel, body);
  expect(whole.model).toBe('client-alias');

  const { chunks, error } = await collect(provider.stream(channel, { ...body, stream: true }));
  expect(error).toBeUndefined();
  expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe(whole.choices[0].message.content);
  expect(chunks[chunks.length - 1].usage).toEqual(whole.usage); // asked upstream although the client did not

  const sent = await fetch(`${sim.url}/_sim/requests?last=1`).then(json);
  expect(sent.data[0].headers.authorization).toBe('Bearer sk-channel');
  expect(sent.data[0].body).toMatchObject({ model: 'sim-chat', stream: true, stream_options: { include_usage: true } });
});

it('surfaces a simulated 429 as a retryable upstream error', async () => {
  await fetch(`${sim.url}/_sim/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ status: 429, count: 1 }),
  });
  const err = await chatAdapter('openai-chat', http)
    .complete(channel, body)
    .catch((e) => e);
  expect(err).toBeInstanceOf(GatewayError);
  expect(err).toMatchObject({ status: 503, retryable: true, upstreamStatus: 429 });
});

it('yields what came and then fails non-retryably when the stream is cut', async () => {
  await fetch(`${sim.url}/_sim/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ cut_after_chunks: 2, count: 1 }),
  });
  const { chunks, error } = await collect(chatAdapter('openai-chat', http).stream(channel, body));
  expect(chunks).toHaveLength(3);
  expect(error).toBeInstanceOf(GatewayError);
  expect(error).toMatchObject({ status: 502, retryable: false });
  expect((error as Error).message).toMatch(/^upstream stream ended unexpectedly/);
});
