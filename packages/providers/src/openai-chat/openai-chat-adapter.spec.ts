import { GatewayError, type Channel, type ChatCompletionChunk, type ChatCompletionRequest } from '@unigate/contracts';
import { fixtureChunks, fixtureJson, useReplayUpstream } from '../__test-support__/replay-server';
import { OpenAiChatAdapter } from './openai-chat-adapter';

const chunks = (name: string) => fixtureChunks(__dirname, name);
const json = (name: string) => fixtureJson(__dirname, name);

const up = useReplayUpstream(
  (http) => new OpenAiChatAdapter(http),
  (url): Channel => ({
    id: 'ch1',
    protocol: 'openai-chat',
    base_url: `${url}/v1`,
    api_key: 'sk-upstream',
    upstream_model: 'gpt-4o-mini',
    priority: 0,
    weight: 1,
  }),
);

const request = (extra: Partial<ChatCompletionRequest> = {}): ChatCompletionRequest => ({
  model: 'alias-model',
  messages: [{ role: 'user', content: 'Say hello' }],
  ...extra,
});

async function collect(it: AsyncIterable<ChatCompletionChunk>): Promise<{ chunks: ChatCompletionChunk[]; error?: unknown }> {
  const out: ChatCompletionChunk[] = [];
  try {
    for await (const c of it) out.push(c);
    return { chunks: out };
  } catch (error) {
    return { chunks: out, error };
  }
}

describe('OpenAiChatAdapter.complete', () => {
  it('sends the request upstream with the channel model and key, and normalises the answer', async () => {
    up.server.reply({ json: json('text') });
    const { value: res } = await up.client.complete(
      up.channel,
      request({ temperature: 0.2, stream: true, stream_options: { include_usage: false }, foo: 'bar' }),
    );

    expect(up.server.requests).toHaveLength(1);
    const sent = up.server.requests[0];
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-upstream');
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.body).toEqual({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }], temperature: 0.2, foo: 'bar' });

    expect(res).toEqual({
      id: 'chatcmpl-fx6',
      object: 'chat.completion',
      created: 1700000005,
      model: 'alias-model',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Hello, world!', refusal: null, annotations: [] },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: {
        prompt_tokens: 20,
        completion_tokens: 4,
        total_tokens: 24,
        prompt_tokens_details: { cached_tokens: 8, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
      service_tier: 'default',
      system_fingerprint: 'fp_44709d6fcb',
    });
  });

  it('omits authorization when the channel has no key, and tolerates a trailing slash in base_url', async () => {
    up.server.reply({ json: json('tool-call') });
    const { value: res } = await up.client.complete({ ...up.channel, api_key: '', base_url: `${up.server.url}/v1/` }, request());
    expect(up.server.requests[0].headers.authorization).toBeUndefined();
    expect(up.server.requests[0].url).toBe('/v1/chat/completions');
    expect(res.choices[0]).toEqual({
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        refusal: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
      },
      logprobs: null,
      finish_reason: 'tool_calls',
    });
    expect(res.usage).toEqual({ prompt_tokens: 20, completion_tokens: 9, total_tokens: 29 });
  });

  it("leaves a message's and a content part's cache_control (Anthropic breakpoints) out of what it sends, answered or streamed", async () => {
    const question = [
      { type: 'text' as const, text: 'rules', cache_control: { type: 'ephemeral' as const, ttl: '1h' as const } },
      { type: 'image_url' as const, image_url: { url: 'https://example.com/a.png' }, cache_control: null },
      { type: 'text' as const, text: 'and now?' },
    ];
    const messages = [
      { role: 'system' as const, content: 'Be brief.', cache_control: { type: 'ephemeral' as const } },
      { role: 'user' as const, content: question },
      { role: 'user' as const, content: 'one more', cache_control: null },
    ];
    up.server.reply({ json: json('text') });
    await up.client.complete(up.channel, request({ messages }));
    up.server.reply({ sse: chunks('text') });
    expect((await collect(up.client.stream(up.channel, request({ messages, stream: true })))).error).toBeUndefined();
    for (const sent of up.server.requests) {
      expect((sent.body as { messages: unknown }).messages).toEqual([
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'rules' },
            { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
            { type: 'text', text: 'and now?' },
          ],
        },
        { role: 'user', content: 'one more' },
      ]);
    }
    expect(up.server.requests).toHaveLength(2);
    // The caller's request is not changed.
    expect(question[0]).toHaveProperty('cache_control');
    expect(messages[0]).toHaveProperty('cache_control');
  });

  it('maps vendor finish reasons and estimates usage a vendor left out', async () => {
    up.server.reply({ json: json('no-usage') });
    const { value: res } = await up.client.complete(up.channel, request());
    expect(res.choices[0].finish_reason).toBe('length');
    expect(res.system_fingerprint).toBeUndefined();
    // 3 reply priming + 3 per message + "Say hello" (2); "Two words" (2)
    expect(res.usage).toEqual({ prompt_tokens: 8, completion_tokens: 2, total_tokens: 10 });
  });

  it('keeps a 400 a 400 with the upstream message, code and param', async () => {
    up.server.reply({ status: 400, json: json('error-400') });
    const err = await up.client.complete(up.channel, request()).catch((e) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      code: 'invalid_value',
      param: 'messages[0].role',
      retryable: false,
    });
    expect(err.message).toMatch(/'robot' is not one of/);
  });

  it('turns 429 and 5xx into retryable upstream errors with the upstream message', async () => {
    up.server.reply({ status: 429, json: json('error-429') });
    const rate = await up.client.complete(up.channel, request()).catch((e) => e);
    expect(rate).toMatchObject({ status: 503, code: 'upstream_error', retryable: true });
    expect(rate.message).toMatch(/^Rate limit reached/);

    up.server.reply({ status: 503, json: { error: { message: 'overloaded', type: 'server_error' } } });
    expect(await up.client.complete(up.channel, request()).catch((e) => e)).toMatchObject({
      status: 503,
      message: 'overloaded',
      retryable: true,
    });

    up.server.reply({ status: 500, raw: 'Internal Server Error', contentType: 'text/plain' });
    expect(await up.client.complete(up.channel, request()).catch((e) => e)).toMatchObject({
      status: 502,
      message: 'Internal Server Error',
      retryable: true,
    });
  });

  it('hides the vendor key hint of a 401 and makes it a retryable channel failure', async () => {
    up.server.reply({ status: 401, json: json('error-401') });
    const err = await up.client.complete(up.channel, request()).catch((e) => e);
    expect(err).toMatchObject({ status: 502, retryable: true });
    expect(err.message).not.toMatch(/sk-/);
  });

  it('rejects an invalid upstream body as a retryable upstream error', async () => {
    up.server.reply({ json: { id: 'x', choices: 'nope' } });
    expect(await up.client.complete(up.channel, request()).catch((e) => e)).toMatchObject({ status: 502, retryable: true });
  });

  it('turns a refused connection into a retryable upstream error', async () => {
    const dead = { ...up.channel, base_url: 'http://127.0.0.1:1/v1' };
    const err = await up.client.complete(dead, request()).catch((e) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ status: 502, code: 'upstream_error', retryable: true });
  });

  it('aborts with the caller signal and rethrows its reason', async () => {
    up.server.reply({ hang: true });
    const abort = new AbortController();
    const pending = up.client.complete(up.channel, request(), abort.signal).catch((e) => e);
    while (up.server.requests.length === 0) await new Promise((r) => setTimeout(r, 2));
    const reason = new Error('client went away');
    abort.abort(reason);
    expect(await pending).toBe(reason);
  });
});

describe('OpenAiChatAdapter.stream', () => {
  it('asks for the usage chunk upstream and yields normalised chunks through [DONE]', async () => {
    up.server.reply({ sse: chunks('text') });
    const { chunks: got, error } = await collect(up.client.stream(up.channel, request({ stream: true }), undefined));
    expect(error).toBeUndefined();

    const sent = up.server.requests[0];
    expect(sent.headers.accept).toBe('text/event-stream');
    expect(sent.body).toEqual({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Say hello' }],
      stream: true,
      stream_options: { include_usage: true },
    });

    expect(got).toHaveLength(6);
    expect(got.every((c) => c.id === 'chatcmpl-fx1' && c.created === 1700000000 && c.model === 'alias-model')).toBe(true);
    expect(got.every((c) => c.object === 'chat.completion.chunk' && c.system_fingerprint === 'fp_44709d6fcb')).toBe(true);
    expect(got[0].choices).toEqual([{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }]);
    expect(got.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Hello, world! ✓');
    expect(got[4].choices[0]).toEqual({ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' });
    expect(got[0].usage).toBeNull();
    expect(got[5].choices).toEqual([]);
    expect(got[5].usage).toEqual({
      prompt_tokens: 20,
      completion_tokens: 5,
      total_tokens: 25,
      prompt_tokens_details: { cached_tokens: 4, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0 },
    });
  });

  it('keeps stream_options the client set and still forces include_usage', async () => {
    up.server.reply({ sse: chunks('text') });
    await collect(up.client.stream(up.channel, request({ stream_options: { include_usage: false } })));
    expect((up.server.requests[0].body as { stream_options: unknown }).stream_options).toEqual({ include_usage: true });
  });

  it('yields tool-call fragments with id, type and name only in the first', async () => {
    up.server.reply({ sse: chunks('tool-call') });
    const { chunks: got, error } = await collect(up.client.stream(up.channel, request()));
    expect(error).toBeUndefined();
    const fragments = got.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(fragments).toEqual([
      { index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } },
      { index: 0, function: { arguments: '{"city":' } },
      { index: 0, function: { arguments: '"Paris"}' } },
    ]);
    expect(got[4].choices[0].finish_reason).toBe('tool_calls');
    expect(got[5].usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 9, total_tokens: 29 });
  });

  it('drops the nulls compatible vendors send and maps their finish reasons', async () => {
    up.server.reply({ sse: chunks('compatible-vendor') });
    const { chunks: got, error } = await collect(up.client.stream(up.channel, request()));
    expect(error).toBeUndefined();
    expect(got[0].choices[0].delta).toEqual({ role: 'assistant', reasoning_content: 'Thinking' });
    expect(got[1].choices[0].delta).toEqual({ content: 'Answer' });
    expect(got[2].choices[0].finish_reason).toBe('stop');
    expect(got[2].usage).toEqual({
      prompt_tokens: 10,
      completion_tokens: 12,
      total_tokens: 22,
      completion_tokens_details: { reasoning_tokens: 10 },
    });
    expect('usage' in got[0]).toBe(false);
  });

  it('throws a non-retryable error after yielding what came when the stream ends without [DONE]', async () => {
    up.server.reply({ sse: chunks('cut') });
    const { chunks: got, error } = await collect(up.client.stream(up.channel, request()));
    expect(got.map((c) => c.choices[0].delta.content)).toEqual(['', 'Partial', ' answer']);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ status: 502, code: 'upstream_error', retryable: false, message: 'upstream stream ended unexpectedly' });
  });

  it('does the same when the connection is cut mid-stream', async () => {
    up.server.reply({ sse: chunks('cut'), cut: true });
    const { chunks: got, error } = await collect(up.client.stream(up.channel, request()));
    expect(got).toHaveLength(3);
    expect(error).toMatchObject({ status: 502, retryable: false });
    expect((error as Error).message).toMatch(/^upstream stream ended unexpectedly/);
  });

  it('is retryable when the stream died before any chunk', async () => {
    up.server.reply({ sse: [], cut: true });
    const { chunks: got, error } = await collect(up.client.stream(up.channel, request()));
    expect(got).toHaveLength(0);
    expect(error).toMatchObject({ status: 502, retryable: true });
  });

  it('throws the upstream message of an error payload inside the stream', async () => {
    up.server.reply({ sse: chunks('stream-error') });
    const { chunks: got, error } = await collect(up.client.stream(up.channel, request()));
    expect(got).toHaveLength(1);
    expect(error).toMatchObject({ status: 502, retryable: false, message: 'The server had an error while processing your request.' });
  });

  it('understands an `event: error` SSE event', async () => {
    up.server.reply({ raw: 'event: error\ndata: {"error":{"message":"boom","type":"server_error"}}\n\n' });
    const { error } = await collect(up.client.stream(up.channel, request()));
    expect(error).toMatchObject({ message: 'boom', retryable: true });
  });

  it('rejects an upstream HTTP error before streaming', async () => {
    up.server.reply({ status: 429, json: json('error-429') });
    const { chunks: got, error } = await collect(up.client.stream(up.channel, request()));
    expect(got).toHaveLength(0);
    expect(error).toMatchObject({ status: 503, retryable: true });
  });

  it('rethrows the abort reason when the caller aborts mid-stream', async () => {
    up.server.reply({ sse: chunks('text').slice(0, 2), keepOpen: true }); // two chunks, then silence
    const abort = new AbortController();
    const reason = new Error('client closed');
    const got: ChatCompletionChunk[] = [];
    const err = await (async () => {
      for await (const c of up.client.stream(up.channel, request(), abort.signal)) {
        got.push(c);
        if (got.length === 2) abort.abort(reason);
      }
    })().catch((e) => e);
    expect(got).toHaveLength(2);
    expect(err).toBe(reason);
  });
});
