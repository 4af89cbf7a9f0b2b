import { GatewayError, type Channel, type ChatCompletionChunk, type ChatCompletionRequest } from '@unigate/contracts';
import { fixtureChunks, fixtureJson, useReplayUpstream } from '../__test-support__/replay-server';
import { GeminiGenerateAdapter } from './gemini-generate-adapter';

const chunks = (name: string) => fixtureChunks(__dirname, name);
const json = (name: string) => fixtureJson(__dirname, name);

const up = useReplayUpstream(
  (http) => new GeminiGenerateAdapter(http),
  (url): Channel => ({
    id: 'g1',
    protocol: 'gemini-generate',
    base_url: url,
    api_key: 'AIza-upstream',
    upstream_model: 'gemini-2.5-flash',
    priority: 0,
    weight: 1,
  }),
);

const request = (extra: Partial<ChatCompletionRequest> = {}): ChatCompletionRequest => ({
  model: 'gamma-2.5-flash',
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

describe('GeminiGenerateAdapter.complete', () => {
  it('posts the translated request to :generateContent with x-goog-api-key and normalises the answer', async () => {
    up.server.reply({ json: json('text') });
    const { value: res } = await up.client.complete(up.channel, request({ temperature: 0.2, stream: true, max_tokens: 64 }));

    expect(up.server.requests).toHaveLength(1);
    const sent = up.server.requests[0];
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(sent.headers['x-goog-api-key']).toBe('AIza-upstream');
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Say hello' }] }],
      generationConfig: { temperature: 0.2, maxOutputTokens: 64 },
    });

    expect(res.model).toBe('gamma-2.5-flash');
    expect(res.choices[0].message.content).toBe('Hello, world!');
    expect(res.usage).toEqual({
      prompt_tokens: 8,
      completion_tokens: 32,
      total_tokens: 40,
      completion_tokens_details: { reasoning_tokens: 28 },
    });
  });

  it('omits the key header for a keyless channel and strips a models/ prefix and trailing slash', async () => {
    up.server.reply({ json: json('tool-call') });
    const { value: res } = await up.client.complete(
      { ...up.channel, api_key: '', base_url: `${up.server.url}/`, upstream_model: 'models/gemini-2.5-pro' },
      request(),
    );
    expect(up.server.requests[0].headers['x-goog-api-key']).toBeUndefined();
    expect(up.server.requests[0].url).toBe('/v1beta/models/gemini-2.5-pro:generateContent');
    expect(res.choices[0].finish_reason).toBe('tool_calls');
  });

  it('rejects a request it cannot translate before calling the upstream', async () => {
    const err = await up.client
      .complete(up.channel, request({ messages: [{ role: 'tool', tool_call_id: 'x', content: 'r' }] }))
      .catch((e) => e);
    expect(err).toMatchObject({ status: 400, retryable: false, param: 'messages[0].tool_call_id' });
    expect(up.server.requests).toHaveLength(0);
  });

  it('keeps INVALID_ARGUMENT a 400 with the upstream message', async () => {
    up.server.reply({ status: 400, json: json('error-400') });
    const err = await up.client.complete(up.channel, request()).catch((e) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ status: 400, type: 'invalid_request_error', code: 'invalid_argument', retryable: false });
    expect(err.message).toMatch(/max_output_tokens must be positive/);
  });

  it('makes RESOURCE_EXHAUSTED and 5xx retryable upstream errors', async () => {
    up.server.reply({ status: 429, json: json('error-429') });
    expect(await up.client.complete(up.channel, request()).catch((e) => e)).toMatchObject({
      status: 503,
      code: 'upstream_error',
      retryable: true,
      message: 'Resource has been exhausted (e.g. check quota).',
    });
    up.server.reply({ status: 503, json: { error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } } });
    expect(await up.client.complete(up.channel, request()).catch((e) => e)).toMatchObject({
      status: 503,
      message: 'The model is overloaded.',
      retryable: true,
    });
  });

  it("treats a rejected key and an unknown upstream model as the channel's failure", async () => {
    up.server.reply({ status: 400, json: json('error-key') });
    const key = await up.client.complete(up.channel, request()).catch((e) => e);
    expect(key).toMatchObject({ status: 502, retryable: true });
    expect(key.message).not.toMatch(/API key not valid/);
    up.server.reply({ status: 404, json: json('error-404') });
    expect(await up.client.complete(up.channel, request()).catch((e) => e)).toMatchObject({ status: 502, retryable: true });
  });

  it('rejects an invalid body and a refused connection as retryable', async () => {
    up.server.reply({ json: { candidates: 'nope' } });
    expect(await up.client.complete(up.channel, request()).catch((e) => e)).toMatchObject({ status: 502, retryable: true });
    const dead = await up.client.complete({ ...up.channel, base_url: 'http://127.0.0.1:1' }, request()).catch((e) => e);
    expect(dead).toMatchObject({ status: 502, code: 'upstream_error', retryable: true });
  });
});

describe('GeminiGenerateAdapter.stream', () => {
  it('asks :streamGenerateContent?alt=sse and yields chunks, then the usage chunk', async () => {
    up.server.reply({ sse: chunks('thinking') });
    const { chunks: got, error } = await collect(up.client.stream(up.channel, request({ reasoning_effort: 'low' })));
    expect(error).toBeUndefined();
    const sent = up.server.requests[0];
    expect(sent.url).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(sent.headers.accept).toBe('text/event-stream');
    expect(sent.body).toMatchObject({ generationConfig: { thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } } });

    expect(got.map((c) => c.choices[0]?.delta.reasoning_content ?? '').join('')).toBe(
      '**Weighing the question**\n\nThe user asks for the capital.',
    );
    expect(got.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Paris is the capital of France.');
    expect(got[got.length - 2].choices[0].finish_reason).toBe('stop');
    const last = got[got.length - 1];
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({ prompt_tokens: 2100, completion_tokens: 52, prompt_tokens_details: { cached_tokens: 2048 } });
  });

  it('yields what came, then a non-retryable error when the body ends without a finish reason', async () => {
    up.server.reply({ sse: chunks('cut') });
    const { chunks: got, error } = await collect(up.client.stream(up.channel, request()));
    expect(got.map((c) => c.choices[0].delta.content)).toEqual(['Partial', ' answer']);
    expect(error).toMatchObject({ status: 502, retryable: false, message: 'upstream stream ended unexpectedly' });
  });

  it('does the same when the connection is cut, and is retryable when nothing came', async () => {
    up.server.reply({ sse: chunks('cut'), cut: true });
    const cut = await collect(up.client.stream(up.channel, request()));
    expect(cut.chunks).toHaveLength(2);
    expect(cut.error).toMatchObject({ status: 502, retryable: false });

    up.server.reply({ sse: [], cut: true });
    const empty = await collect(up.client.stream(up.channel, request()));
    expect(empty.chunks).toHaveLength(0);
    expect(empty.error).toMatchObject({ status: 502, retryable: true });
  });

  it('throws the message of an error payload inside the stream', async () => {
    up.server.reply({ sse: chunks('stream-error') });
    const { chunks: got, error } = await collect(up.client.stream(up.channel, request()));
    expect(got).toHaveLength(1);
    expect(error).toMatchObject({ status: 502, retryable: false });
    expect((error as Error).message).toMatch(/^An internal error has occurred/);
  });

  it('fails over (retryable) on an HTTP error before streaming', async () => {
    up.server.reply({ status: 429, json: json('error-429') });
    const { chunks: got, error } = await collect(up.client.stream(up.channel, request()));
    expect(got).toHaveLength(0);
    expect(error).toMatchObject({ status: 503, retryable: true });
  });

  it('rethrows the abort reason when the caller aborts mid-stream', async () => {
    up.server.reply({ sse: chunks('cut'), keepOpen: true });
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
