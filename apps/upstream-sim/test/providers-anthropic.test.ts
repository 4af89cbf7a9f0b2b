/**
 * The gateway's Anthropic adapters (packages/providers) against the simulator: the native client, and
 * the chat provider that serves chat-completions clients on anthropic-messages channels.
 */
import {
  GatewayError,
  type AnthropicStreamEvent,
  type Channel,
  type ChatCompletionChunk,
  type ChatCompletionRequest,
} from '@unigate/contracts';
import { AnthropicMessagesClient, HttpClient } from '@unigate/providers';
import { chatAdapter, json } from './chat-adapter';
import { createSimulator, type Simulator } from '../src';

let sim: Simulator;
let http: HttpClient;
let sigma: Channel;
let openai: Channel;

beforeAll(async () => {
  sim = await createSimulator({ tokenDelayMs: 0 });
  http = new HttpClient();
  sigma = {
    id: 'sim-sigma',
    protocol: 'anthropic-messages',
    base_url: sim.url,
    api_key: 'sk-ant-channel',
    upstream_model: 'sim-sigma',
    priority: 0,
    weight: 1,
  };
  openai = {
    id: 'sim-openai',
    protocol: 'openai-chat',
    base_url: `${sim.url}/v1`,
    api_key: '',
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

const setFault = (rule: unknown) =>
  fetch(`${sim.url}/_sim/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rule) });
const body: ChatCompletionRequest = {
  model: 'sigma-sonnet-4-6',
  messages: [
    { role: 'system', content: 'Be kind.' },
    { role: 'user', content: 'Adapter round trip' },
  ],
};

async function collect<T>(it: AsyncIterable<T>) {
  const items: T[] = [];
  try {
    for await (const x of it) items.push(x);
    return { items, error: undefined as unknown };
  } catch (error) {
    return { items, error };
  }
}

describe('chat provider on an anthropic-messages channel', () => {
  it('answers what the OpenAI channel answers, whole and streamed, with the same usage', async () => {
    const provider = chatAdapter('anthropic-messages', http);
    const whole = await provider.complete(sigma, body);
    const viaOpenAi = await chatAdapter('openai-chat', http).complete(openai, body);
    expect(whole.model).toBe('sigma-sonnet-4-6');
    expect(whole.choices[0].message.content).toBe(viaOpenAi.choices[0].message.content);
    expect(whole.usage).toEqual({ ...viaOpenAi.usage, completion_tokens_details: undefined, prompt_tokens_details: { cached_tokens: 0 } });

    const sent = (await json(await fetch(`${sim.url}/_sim/requests?last=2`))).data[0];
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers).toMatchObject({ 'x-api-key': 'sk-ant-channel', 'anthropic-version': '2023-06-01' });
    expect(sent.body).toEqual({
      model: 'sim-sigma',
      max_tokens: 4096,
      system: 'Be kind.',
      messages: [{ role: 'user', content: 'Adapter round trip' }],
    });

    const { items: chunks, error } = await collect<ChatCompletionChunk>(provider.stream(sigma, { ...body, stream: true }));
    expect(error).toBeUndefined();
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe(whole.choices[0].message.content);
    expect(chunks.at(-1)!.usage).toEqual(whole.usage);
  });

  it('round-trips a tool call and reports reasoning for a thinking request', async () => {
    const provider = chatAdapter('anthropic-messages', http);
    const tools = [
      {
        type: 'function' as const,
        function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
      },
    ];
    // The simulated model calls a tool the question names (shared/agent-turn.ts).
    const asking = { ...body, messages: [...body.messages, { role: 'user' as const, content: 'And the weather in Paris?' }] };
    const first = await provider.complete(sigma, { ...asking, tools, reasoning_effort: 'low' });
    expect(first.choices[0].finish_reason).toBe('tool_calls');
    expect(first.choices[0].message.reasoning_content?.length).toBeGreaterThan(0);
    expect(first.usage.completion_tokens_details?.reasoning_tokens).toBeGreaterThan(0);
    const call = first.choices[0].message.tool_calls![0];
    expect(JSON.parse(call.function.arguments)).toHaveProperty('city');

    const second = await provider.complete(sigma, {
      ...body,
      tools,
      messages: [
        ...asking.messages,
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: call.id, content: 'Sunny in Paris' },
      ],
    });
    expect(second.choices[0].finish_reason).toBe('stop');
    expect(second.choices[0].message.content).toContain('Sunny in Paris');
  });

  it('fails over on a simulated 529 and fails non-retryably after a mid-stream cut', async () => {
    await setFault({ match: { path: '/v1/messages' }, status: 529, count: 1 });
    const err = await chatAdapter('anthropic-messages', http)
      .complete(sigma, body)
      .catch((e) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ status: 503, retryable: true });

    await setFault({ match: { path: '/v1/messages', model: 'sim-sigma' }, cut_after_chunks: 2, count: 1 });
    const { items, error } = await collect(chatAdapter('anthropic-messages', http).stream(sigma, body));
    expect(items.length).toBe(3); // role chunk + two deltas
    expect(error).toMatchObject({ status: 502, retryable: false });
  });
});

describe('native client', () => {
  it('creates, streams and counts against the simulator', async () => {
    const client = new AnthropicMessagesClient(http);
    const req = { model: 'client-alias', max_tokens: 100, messages: [{ role: 'user' as const, content: 'Native call' }] };
    const msg = await client.create(sigma, req);
    expect(msg.model).toBe('sim-sigma');
    const { items: events, error } = await collect<AnthropicStreamEvent>(client.stream(sigma, req));
    expect(error).toBeUndefined();
    expect(events.map((e) => e.type).slice(0, 3)).toEqual(['message_start', 'content_block_start', 'ping']);
    const text = events.flatMap((e) => (e.type === 'content_block_delta' && e.delta.type === 'text_delta' ? [e.delta.text] : [])).join('');
    expect(msg.content).toEqual([{ type: 'text', text }]);
    expect(await client.countTokens(sigma, { model: 'x', messages: req.messages })).toEqual({ input_tokens: msg.usage.input_tokens });
  });
});
