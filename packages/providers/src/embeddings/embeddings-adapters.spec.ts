/**
 * The three embeddings upstream formats against a replay server: what goes upstream, vectors put
 * back in input order, base64 encoded by the gateway (or passed on from Voyage's), usage as reported, and upstream failures
 * mapped by the shared policy. Fixtures follow reference/openai.md, voyage.md and dashscope.md.
 */
import { embeddingsSpec, GatewayError, type Channel, type EmbeddingRequest, type ModelInfo } from '@unigate/contracts';
import { fixtureJson, useReplayServer } from '../__test-support__/replay-server';
import { embeddingsEndpoint } from '../endpoints/embeddings.endpoint';

const replay = useReplayServer();
const DIR = __dirname;

const model = (limits: { default: number }): ModelInfo => ({
  id: 'public-model',
  family: 'zeta',
  kind: 'embedding',
  owned_by: 'zeta',
  created: 1,
  prices: { input_per_mtok: 1, output_per_mtok: 0 },
  embedding: { dimensions: [2, limits.default], default_dimensions: limits.default },
});
const channel = (protocol: string, base: string): Channel => ({
  id: 'c1',
  protocol,
  base_url: base,
  api_key: 'sk-upstream',
  upstream_model: 'upstream-model',
  priority: 0,
  weight: 1,
});
const ctx = (m: ModelInfo) => ({
  signal: new AbortController().signal,
  request_id: 'req_1',
  account_id: 'acct_1',
  tier: 'paid' as const,
  options: {},
  files: [],
  model: m,
});
const call = (protocol: string, base: string, req: EmbeddingRequest, m = model({ default: 2 })) =>
  embeddingsEndpoint.adapter(protocol, replay.http)!.call(channel(protocol, base), req, ctx(m));

test('voyage: output_dimension and base64 asked upstream, vectors by index, its base64 passed on unread, usage from total_tokens', async () => {
  replay.server.reply({ json: fixtureJson(DIR, 'voyage') });
  const r = await call('voyage', `${replay.server.url}/v1`, { model: 'public-model', input: ['a', 'b'], encoding_format: 'base64' });
  expect(replay.server.requests[0]).toMatchObject({
    url: '/v1/embeddings',
    body: { model: 'upstream-model', input: ['a', 'b'], output_dimension: 2, encoding_format: 'base64' },
  });
  expect(replay.server.requests[0].headers.authorization).toBe('Bearer sk-upstream');
  expect(r.value.model).toBe('public-model');
  expect(r.value.data.map((d) => d.index)).toEqual([0, 1]);
  // Little-endian float32 [1, 0] and [0.6, 0.8], as the upstream sent them.
  expect(r.value.data.map((d) => d.embedding)).toEqual(['AACAPwAAAAA=', 'mpkZP83MTD8=']);
  expect(r.value.usage).toEqual({ prompt_tokens: 7, total_tokens: 7 });
  expect(r.usage).toEqual({ input_tokens: 7 });
});

test('voyage: for a client asking for floats the base64 vectors stay base64 (the edge prints them as floats, in pieces)', async () => {
  replay.server.reply({ json: fixtureJson(DIR, 'voyage') });
  const req: EmbeddingRequest = { model: 'public-model', input: ['a', 'b'] };
  const r = await call('voyage', `${replay.server.url}/v1`, req);
  expect(replay.server.requests[0].body).toMatchObject({ encoding_format: 'base64' });
  expect(r.value.data.map((d) => d.embedding)).toEqual(['AACAPwAAAAA=', 'mpkZP83MTD8=']);
  const printed = JSON.parse([...embeddingsSpec.inPieces!.render(r.value, req)].join(''));
  expect(printed.data.map((d: { embedding: number[] }) => d.embedding)).toEqual([
    [1, 0],
    [Math.fround(0.6), Math.fround(0.8)],
  ]);
});

test('voyage: a vector that is not base64 of whole float32 values is the upstream fault (502)', async () => {
  for (const embedding of ['AACAPwAAAA==', 'not base64!', [1, 0]]) {
    replay.server.reply({ json: { data: [{ index: 0, embedding }], usage: { total_tokens: 1 } } });
    expect(await call('voyage', `${replay.server.url}/v1`, { model: 'm', input: 'a' }).catch((e) => e)).toMatchObject({
      status: 502,
      message: expect.stringMatching(/invalid embeddings answer/),
    });
  }
});

test('openai format: floats asked for with the dimension, prompt_tokens as usage', async () => {
  replay.server.reply({ json: fixtureJson(DIR, 'openai') });
  const r = await call('openai-embeddings', `${replay.server.url}/v1`, { model: 'public-model', input: 'x', dimensions: 2 });
  expect(replay.server.requests[0].body).toEqual({ model: 'upstream-model', input: ['x'], encoding_format: 'float', dimensions: 2 });
  expect(r.value.data).toEqual([{ object: 'embedding', index: 0, embedding: [0.25, -0.5] }]);
  expect(r.usage).toEqual({ input_tokens: 3 });
});

test('dashscope native: input.texts and parameters.dimension, text_index order; its 400 passes through', async () => {
  replay.server.reply({ json: fixtureJson(DIR, 'dashscope') });
  const r = await call('dashscope', replay.server.url, { model: 'public-model', input: ['a', 'b'] });
  expect(replay.server.requests[0]).toMatchObject({
    url: '/api/v1/services/embeddings/text-embedding/text-embedding',
    body: { model: 'upstream-model', input: { texts: ['a', 'b'] }, parameters: { dimension: 2 } },
  });
  expect(r.value.data.map((d) => d.embedding)).toEqual([
    [1, 0],
    [0, 1],
  ]);

  replay.server.reply({ status: 400, json: fixtureJson(DIR, 'dashscope-error-400') });
  const err = await call('dashscope', replay.server.url, { model: 'public-model', input: 'a' }).catch((e: unknown) => e as GatewayError);
  expect(err).toMatchObject({ status: 400, code: 'InvalidParameter', retryable: false });
});

test('upstream trouble: 429 is retryable, a rejected key is a retryable 502, a vector short is the upstream fault', async () => {
  replay.server.reply({ status: 429, json: { detail: 'rate limited' } });
  expect(await call('voyage', `${replay.server.url}/v1`, { model: 'm', input: 'a' }).catch((e) => e)).toMatchObject({
    status: 503,
    retryable: true,
  });
  replay.server.reply({ status: 401, json: { detail: 'bad key' } });
  const key = await call('voyage', `${replay.server.url}/v1`, { model: 'm', input: 'a' }).catch((e) => e);
  expect(key).toMatchObject({ status: 502, retryable: true });
  expect(key.message).not.toMatch(/bad key/);
  replay.server.reply({ json: { data: [{ index: 0, embedding: 'AACAPwAAAAA=' }], usage: { total_tokens: 1 } } });
  expect(await call('voyage', `${replay.server.url}/v1`, { model: 'm', input: ['a', 'b'] }).catch((e) => e)).toMatchObject({
    status: 502,
    message: expect.stringMatching(/one vector per input/),
  });
});
