/** The chat provider for anthropic-messages channels: translation + native client, against recorded replies. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GatewayError, type Channel, type ChatCompletionChunk, type ChatCompletionRequest } from '@unigate/contracts';
import { fixtureJson, startReplayServer, type ReplayServer } from '../__test-support__/replay-server';
import { HttpClient } from '../http/http-client';
import { AnthropicMessagesChatProvider } from './anthropic-messages-chat-provider';
import { AnthropicMessagesClient } from './anthropic-messages-client';

let server: ReplayServer;
let http: HttpClient;
let provider: AnthropicMessagesChatProvider;
const channel = (): Channel => ({
  id: 'sigma',
  protocol: 'anthropic-messages',
  base_url: server.url,
  api_key: 'sk-ant',
  upstream_model: 'claude-sonnet-4-6',
  priority: 0,
  weight: 1,
});
const sse = (name: string) => readFileSync(join(__dirname, '__fixtures__', `${name}.sse.txt`), 'utf8');

beforeAll(async () => {
  server = await startReplayServer();
  http = new HttpClient();
  provider = new AnthropicMessagesChatProvider(new AnthropicMessagesClient(http), { defaultMaxTokens: 1000 });
});
afterAll(async () => {
  await http.close();
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

const request = (extra: Partial<ChatCompletionRequest> = {}): ChatCompletionRequest => ({
  model: 'sigma-sonnet-4-6',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Weather in Paris?' },
  ],
  ...extra,
});

async function collect(it: AsyncIterable<ChatCompletionChunk>) {
  const chunks: ChatCompletionChunk[] = [];
  try {
    for await (const c of it) chunks.push(c);
    return { chunks, error: undefined as unknown };
  } catch (error) {
    return { chunks, error };
  }
}

describe('AnthropicMessagesChatProvider', () => {
  it('completes: the upstream gets a Messages request, the client a chat completion', async () => {
    server.reply({ json: fixtureJson(__dirname, 'tool-use') });
    const tools = [
      {
        type: 'function' as const,
        function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
      },
    ];
    const { value: res } = await provider.complete(channel(), request({ tools, stream: true }));
    expect(server.requests[0].url).toBe('/v1/messages');
    expect(server.requests[0].body).toEqual({
      model: 'claude-sonnet-4-6',
      max_tokens: 1000,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
    });
    expect(res.model).toBe('sigma-sonnet-4-6');
    expect(res.choices[0]).toEqual({
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        refusal: null,
        tool_calls: [
          { id: 'toolu_01A09q90qw90lq917835lq9', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
      },
      logprobs: null,
      finish_reason: 'tool_calls',
    });
    expect(res.usage).toEqual({ prompt_tokens: 30, completion_tokens: 9, total_tokens: 39, prompt_tokens_details: { cached_tokens: 0 } });
  });

  it('streams chat chunks ending with the usage chunk, cached tokens included', async () => {
    server.reply({ raw: sse('text') });
    const { chunks, error } = await collect(provider.stream(channel(), request({ stream: true })));
    expect(error).toBeUndefined();
    expect(server.requests[0].body).toMatchObject({ stream: true, model: 'claude-sonnet-4-6' });
    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: '' });
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Hello, world!');
    expect(chunks[chunks.length - 2].choices[0].finish_reason).toBe('stop');
    expect(chunks[chunks.length - 1]).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 2060, completion_tokens: 4, total_tokens: 2064, prompt_tokens_details: { cached_tokens: 2048 } },
    });
  });

  it('measures the one-hour part of the cache writes, which the chat usage leaves in cache_write_tokens', async () => {
    const usage = {
      input_tokens: 12,
      cache_creation_input_tokens: 3000,
      cache_read_input_tokens: 2048,
      cache_creation: { ephemeral_5m_input_tokens: 1000, ephemeral_1h_input_tokens: 2000 },
      output_tokens: 9,
    };
    const written = { input_tokens: 5060, cached_input_tokens: 2048, cache_write_input_tokens: 3000, cache_write_1h_input_tokens: 2000 };
    server.reply({ json: { ...(fixtureJson(__dirname, 'tool-use') as object), usage } });
    const whole = await provider.complete(channel(), request());
    expect(whole.value.usage!.prompt_tokens_details).toEqual({ cached_tokens: 2048, cache_write_tokens: 3000 });
    expect(whole.usage).toEqual({ ...written, output_tokens: 9 });

    // Streamed, only message_start splits the writes by ttl.
    const started = '"usage":{"input_tokens":12,"cache_creation_input_tokens":0,"cache_read_input_tokens":2048,"output_tokens":1}';
    expect(sse('text')).toContain(started);
    server.reply({ raw: sse('text').replace(started, `"usage":${JSON.stringify({ ...usage, output_tokens: 1 })}`) });
    const stream = provider.stream(channel(), request({ stream: true }));
    const { chunks, error } = await collect(stream);
    expect(error).toBeUndefined();
    expect(chunks[chunks.length - 1].usage!.prompt_tokens_details).toEqual({ cached_tokens: 2048, cache_write_tokens: 3000 });
    expect(stream.usage()).toEqual({ ...written, output_tokens: 4 });
  });

  it('yields what came, then fails non-retryably, when the upstream stream is cut', async () => {
    server.reply({ raw: sse('cut'), cut: true });
    const { chunks, error } = await collect(provider.stream(channel(), request()));
    expect(chunks.map((c) => c.choices[0].delta.content)).toEqual(['', 'Partial', ' answer']);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ status: 502, retryable: false });
  });

  it('fails over on 529 before the first byte, and refuses untranslatable input without calling upstream', async () => {
    server.reply({ status: 529, json: fixtureJson(__dirname, 'error-529') });
    expect((await collect(provider.stream(channel(), request()))).error).toMatchObject({ status: 503, retryable: true });
    server.requests.length = 0;
    const err = await provider.complete(channel(), request({ n: 3 })).catch((e) => e);
    expect(err).toMatchObject({ status: 400, param: 'n', retryable: false });
    expect(server.requests).toHaveLength(0);
  });
});
