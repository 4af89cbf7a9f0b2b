import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GatewayError, type AnthropicMessagesRequest, type AnthropicStreamEvent, type Channel } from '@unigate/contracts';
import { fixtureJson, useReplayUpstream } from '../__test-support__/replay-server';
import { AnthropicMessagesClient } from './anthropic-messages-client';

const json = (name: string) => fixtureJson(__dirname, name);
const sse = (name: string) => readFileSync(join(__dirname, '__fixtures__', `${name}.sse.txt`), 'utf8');

const up = useReplayUpstream(
  (http) => new AnthropicMessagesClient(http),
  (url): Channel => ({
    id: 'sigma',
    protocol: 'anthropic-messages',
    base_url: `${url}/`,
    api_key: 'sk-ant-upstream',
    upstream_model: 'claude-sonnet-4-6',
    priority: 0,
    weight: 1,
  }),
);

const request = (extra: Partial<AnthropicMessagesRequest> = {}): AnthropicMessagesRequest => ({
  model: 'sigma-sonnet-4-6',
  max_tokens: 256,
  messages: [{ role: 'user', content: 'Say hello' }],
  ...extra,
});

async function collect(it: AsyncIterable<AnthropicStreamEvent>): Promise<{ events: AnthropicStreamEvent[]; error?: unknown }> {
  const events: AnthropicStreamEvent[] = [];
  try {
    for await (const e of it) events.push(e);
    return { events };
  } catch (error) {
    return { events, error };
  }
}

describe('AnthropicMessagesClient.create', () => {
  it('posts to /v1/messages with x-api-key, anthropic-version and the channel model', async () => {
    up.server.reply({ json: json('message') });
    const msg = await up.client.create(up.channel, request({ stream: true, metadata: { user_id: 'u' } }), undefined, {
      beta: 'prompt-caching-2024-07-31',
    });
    const sent = up.server.requests[0];
    expect(sent.url).toBe('/v1/messages');
    expect(sent.headers).toMatchObject({
      'x-api-key': 'sk-ant-upstream',
      'anthropic-version': '2023-06-01',
      'anthropic-beta': 'prompt-caching-2024-07-31',
      'content-type': 'application/json',
      accept: 'application/json',
    });
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toEqual({
      model: 'claude-sonnet-4-6',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Say hello' }],
      metadata: { user_id: 'u' },
    });
    // the unknown block type is left out; everything else is the upstream's
    expect(msg).toEqual({ ...(json('message') as object), content: [{ type: 'text', text: 'Hello, world!', citations: null }] });
  });

  it('sends no key header when the channel has none', async () => {
    up.server.reply({ json: json('tool-use') });
    await up.client.create({ ...up.channel, api_key: '' }, request());
    expect(up.server.requests[0].headers['x-api-key']).toBeUndefined();
  });

  it('keeps a 400 a 400 with the upstream message and error type', async () => {
    up.server.reply({ status: 400, json: json('error-400') });
    const err = await up.client.create(up.channel, request()).catch((e) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ status: 400, code: 'invalid_request_error', type: 'invalid_request_error', retryable: false });
    expect(err.message).toMatch(/unexpected tool_use_id/);
  });

  it('makes 429, 529 and 5xx retryable upstream errors', async () => {
    up.server.reply({ status: 429, json: json('error-429') });
    expect(await up.client.create(up.channel, request()).catch((e) => e)).toMatchObject({
      status: 503,
      retryable: true,
      message: expect.stringMatching(/rate limit/),
    });
    up.server.reply({ status: 529, json: json('error-529') });
    expect(await up.client.create(up.channel, request()).catch((e) => e)).toMatchObject({
      status: 503,
      retryable: true,
      message: 'Overloaded',
    });
    up.server.reply({ status: 500, raw: 'upstream exploded', contentType: 'text/plain' });
    expect(await up.client.create(up.channel, request()).catch((e) => e)).toMatchObject({
      status: 502,
      retryable: true,
      message: 'upstream exploded',
    });
  });

  it('hides the wording of a 401 and fails over', async () => {
    up.server.reply({ status: 401, json: json('error-401') });
    const err = await up.client.create(up.channel, request()).catch((e) => e);
    expect(err).toMatchObject({ status: 502, retryable: true });
    expect(err.message).not.toMatch(/x-api-key/);
  });

  it('rejects an invalid body and a refused connection as retryable upstream errors', async () => {
    up.server.reply({ json: { id: 'x', type: 'message', content: 'nope' } });
    expect(await up.client.create(up.channel, request()).catch((e) => e)).toMatchObject({ status: 502, retryable: true });
    expect(await up.client.create({ ...up.channel, base_url: 'http://127.0.0.1:1' }, request()).catch((e) => e)).toMatchObject({
      status: 502,
      retryable: true,
    });
  });
});

describe('AnthropicMessagesClient.countTokens', () => {
  it('posts the body without max_tokens to /v1/messages/count_tokens', async () => {
    up.server.reply({ json: json('count-tokens') });
    const res = await up.client.countTokens(up.channel, {
      model: 'sigma-sonnet-4-6',
      messages: [{ role: 'user', content: 'hi' }],
      system: 'S',
    });
    expect(res).toEqual({ input_tokens: 2095 });
    expect(up.server.requests[0].url).toBe('/v1/messages/count_tokens');
    expect(up.server.requests[0].body).toEqual({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'hi' }], system: 'S' });
  });
});

describe('AnthropicMessagesClient.stream', () => {
  it('yields typed events through message_stop, pings included, unknown events and blocks skipped', async () => {
    up.server.reply({ raw: sse('text') });
    const { events, error } = await collect(up.client.stream(up.channel, request()));
    expect(error).toBeUndefined();
    expect(up.server.requests[0].headers.accept).toBe('text/event-stream');
    expect(up.server.requests[0].body).toMatchObject({ model: 'claude-sonnet-4-6', stream: true });
    expect(events.map((e) => e.type)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'ping',
      'message_delta',
      'message_stop',
    ]);
    expect(events[0]).toMatchObject({ message: { id: 'msg_01s1', usage: { input_tokens: 12, cache_read_input_tokens: 2048 } } });
    expect(events[7]).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: 4 },
    });
  });

  it('fails non-retryably after yielding what came when the stream ends before message_stop', async () => {
    up.server.reply({ raw: sse('cut') });
    const ended = await collect(up.client.stream(up.channel, request()));
    expect(ended.events).toHaveLength(5);
    expect(ended.error).toMatchObject({ status: 502, retryable: false, message: 'upstream stream ended unexpectedly' });

    up.server.reply({ raw: sse('cut'), cut: true });
    const cut = await collect(up.client.stream(up.channel, request()));
    expect(cut.events).toHaveLength(5);
    expect(cut.error).toMatchObject({ status: 502, retryable: false });
  });

  it('is retryable when nothing came before the cut', async () => {
    up.server.reply({ raw: '', cut: true });
    expect((await collect(up.client.stream(up.channel, request()))).error).toMatchObject({ status: 502, retryable: true });
  });

  it('throws an error event with its message; overloaded becomes 503', async () => {
    up.server.reply({ raw: sse('overloaded') });
    const { events, error } = await collect(up.client.stream(up.channel, request()));
    expect(events).toHaveLength(1);
    expect(error).toMatchObject({ status: 503, retryable: false, message: 'Overloaded' });
  });

  it('rejects an HTTP error before the stream and an event that breaks the schema', async () => {
    up.server.reply({ status: 529, json: json('error-529') });
    expect((await collect(up.client.stream(up.channel, request()))).error).toMatchObject({ status: 503, retryable: true });
    up.server.reply({ raw: 'event: message_start\ndata: {"type":"message_start","message":{"id":1}}\n\n' });
    expect((await collect(up.client.stream(up.channel, request()))).error).toMatchObject({
      status: 502,
      retryable: true,
      message: expect.stringMatching(/invalid message_start/),
    });
  });

  it('rethrows the abort reason when the caller aborts mid-stream', async () => {
    up.server.reply({ raw: sse('cut'), keepOpen: true });
    const abort = new AbortController();
    const reason = new Error('client closed');
    const seen: AnthropicStreamEvent[] = [];
    const err = await (async () => {
      for await (const e of up.client.stream(up.channel, request(), abort.signal)) {
        seen.push(e);
        if (seen.length === 2) abort.abort(reason);
      }
    })().catch((e) => e);
    expect(err).toBe(reason);
  });
});
