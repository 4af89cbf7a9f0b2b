/**
 * The speech adapter's failure paths against a replay server: an audio link outside the channel's
 * origin that points into the private network is refused (SSRF guard), the upstream's own 400 is
 * passed through, and neither charges anything (usage stays empty). The happy paths run end to end
 * in apps/edge/test (media suites).
 */
import { GatewayError, type Channel, type ModelInfo } from '@unigate/contracts';
import { useReplayServer } from '../__test-support__/replay-server';
import { speechEndpoint } from './speech.endpoint';

const replay = useReplayServer();
const MODEL: ModelInfo = {
  id: 'alpha3-tts-flash',
  family: 'alpha',
  kind: 'speech',
  owned_by: 'alpha',
  created: 1,
  prices: { input_per_mtok: 0, output_per_mtok: 0, per_mchar: 1 },
  speech: {
    voices: ['Cherry'],
    default_voice: 'Cherry',
    response_formats: ['mp3', 'wav'],
    default_response_format: 'mp3',
    supports_instructions: false,
  },
};

async function drain(format: 'mp3' | 'wav') {
  const channel: Channel = {
    id: 'c',
    protocol: 'dashscope',
    base_url: replay.server.url,
    api_key: 'k',
    upstream_model: 'tts',
    priority: 0,
    weight: 1,
  };
  const ctx = {
    signal: new AbortController().signal,
    request_id: 'r',
    account_id: 'a',
    tier: 'paid' as const,
    options: {},
    files: [],
    model: MODEL,
  };
  const stream = speechEndpoint.adapter('dashscope', replay.http)!.stream!(
    channel,
    { model: MODEL.id, input: 'hello', response_format: format },
    ctx,
  );
  let error: unknown;
  try {
    for await (const _ of stream);
  } catch (err) {
    error = err;
  }
  return { error: error as GatewayError, usage: stream.usage() };
}

test('an audio link into the private network, off the channel origin, is refused and charges nothing', async () => {
  replay.server.reply({ json: { output: { audio: { url: 'http://127.0.0.1:9/secret.wav' } }, usage: { characters: 5 }, request_id: 'x' } });
  const { error, usage } = await drain('wav');
  expect(error).toBeInstanceOf(GatewayError);
  expect(error.message).toMatch(/refused to fetch .*not a public address/);
  expect(usage).toEqual({});
  expect(replay.server.requests.at(-1)!.body).toEqual({ model: 'tts', input: { text: 'hello', voice: 'Cherry', language_type: 'Auto' } });
});

test("the upstream's 400 passes through with its message and charges nothing", async () => {
  replay.server.reply({
    status: 400,
    json: { code: 'DataInspectionFailed', message: 'Input data may contain inappropriate content.', request_id: 'x' },
  });
  const { error, usage } = await drain('mp3');
  expect(error).toMatchObject({ status: 400, code: 'DataInspectionFailed', message: 'Input data may contain inappropriate content.' });
  expect(usage).toEqual({});
});
