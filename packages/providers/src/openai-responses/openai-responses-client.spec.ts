/**
 * The native Responses path against a replay server: what goes upstream, what comes back, what is
 * skipped and how it is measured. The fixtures follow the event and item shapes of the official
 * `openai` SDK (6.49.0, resources/responses) — this machine cannot reach OpenAI to record them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GatewayError, type Channel, type ModelInfo, type ResponsesRequest, type ResponsesStreamEvent } from '@unigate/contracts';
import { fixtureJson, useReplayUpstream } from '../__test-support__/replay-server';
import { responsesEndpoint } from '../endpoints/responses.endpoint';
import { OpenAiResponsesClient } from './openai-responses-client';

const sse = (name: string) => readFileSync(join(__dirname, '__fixtures__', `${name}.sse.txt`), 'utf8');
const MODEL: ModelInfo = {
  id: 'delta-5',
  family: 'delta',
  kind: 'chat',
  owned_by: 'delta',
  created: 1,
  prices: { input_per_mtok: 1, output_per_mtok: 1 },
};
const ctx = () => ({
  signal: new AbortController().signal,
  request_id: 'req_1',
  account_id: 'acct_1',
  tier: 'paid' as const,
  options: {},
  files: [],
  model: MODEL,
});

const up = useReplayUpstream(
  (http) => new OpenAiResponsesClient(http),
  (url): Channel => ({
    id: 'openai',
    protocol: 'openai-responses',
    base_url: `${url}/v1/`,
    api_key: 'sk-upstream',
    upstream_model: 'gpt-5-codex',
    priority: 0,
    weight: 1,
  }),
);

const request = (extra: Partial<ResponsesRequest> = {}): ResponsesRequest => ({ model: 'delta-5', input: 'When is high tide?', ...extra });

async function collect(it: AsyncIterable<ResponsesStreamEvent>): Promise<{ events: ResponsesStreamEvent[]; error?: unknown }> {
  const events: ResponsesStreamEvent[] = [];
  try {
    for await (const e of it) events.push(e);
    return { events };
  } catch (error) {
    return { events, error };
  }
}

describe('OpenAiResponsesClient', () => {
  it('posts the client body to /v1/responses with the channel model and key, without our previous_response_id', async () => {
    up.server.reply({ json: fixtureJson(__dirname, 'response') });
    const res = await up.client.create(
      up.channel,
      request({ stream: true, previous_response_id: 'resp_ours', store: true, include: ['x'] }),
    );
    const sent = up.server.requests[0];
    expect(sent.url).toBe('/v1/responses');
    expect(sent.headers).toMatchObject({ authorization: 'Bearer sk-upstream', accept: 'application/json' });
    expect(sent.body).toEqual({ model: 'gpt-5-codex', input: 'When is high tide?', store: true, include: ['x'], stream: false });
    // the item of an unknown type is left out; hosted-tool items stay
    expect(res.output.map((o) => o.type)).toEqual(['reasoning', 'web_search_call', 'message']);
  });

  it('passes events through, skipping unknown ones and those of an unknown item, up to the terminal event', async () => {
    up.server.reply({ raw: sse('text') });
    const { events, error } = await collect(up.client.stream(up.channel, request()));
    expect(error).toBeUndefined();
    expect(events.map((e) => e.sequence_number)).toEqual([0, 1, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(events.at(-1)?.type).toBe('response.completed');
    expect(up.server.requests[0].body).toMatchObject({ stream: true });
  });

  it('fails a stream cut before its terminal event, after what came', async () => {
    up.server.reply({ raw: sse('cut') });
    const { events, error } = await collect(up.client.stream(up.channel, request()));
    expect(events).toHaveLength(3);
    expect(error).toMatchObject({ status: 502, retryable: false });
  });

  it('maps an error event and an error answer', async () => {
    up.server.reply({ raw: sse('error-event') });
    const { error } = await collect(up.client.stream(up.channel, request()));
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).message).toContain('The server had an error');
    up.server.reply({ status: 400, json: fixtureJson(__dirname, 'error-400') });
    await expect(up.client.create(up.channel, request())).rejects.toMatchObject({ status: 400, param: 'input[0].content[0].type' });
    up.server.reply({ status: 429, json: { error: { message: 'Slow down' } } });
    await expect(up.client.create(up.channel, request())).rejects.toMatchObject({ status: 503, retryable: true });
  });
});

describe('the native responses adapter', () => {
  const adapter = () => responsesEndpoint.adapter('openai-responses', up.http)!;

  it('answers with the client’s model name and the upstream’s usage', async () => {
    up.server.reply({ json: fixtureJson(__dirname, 'response') });
    const { value, usage } = await adapter().call(up.channel, request(), ctx());
    expect(value.model).toBe('delta-5');
    expect(usage).toEqual({ input_tokens: 320, cached_input_tokens: 256, output_tokens: 58 });
  });

  it('measures a stream from its terminal event, and a cut one from what came', async () => {
    up.server.reply({ raw: sse('text') });
    const stream = adapter().stream!(up.channel, request(), ctx());
    const { events } = await collect(stream);
    expect(events[0]).toMatchObject({ type: 'response.created', response: { model: 'delta-5' } });
    expect(stream.usage()).toEqual({ input_tokens: 40, cached_input_tokens: 0, output_tokens: 9 });

    up.server.reply({ raw: sse('cut') });
    const cut = adapter().stream!(up.channel, request(), ctx());
    await collect(cut);
    expect(cut.usage().output_tokens).toBe(4); // "Half of an answer"
    expect(cut.usage().input_tokens).toBeGreaterThan(0);
  });
});
