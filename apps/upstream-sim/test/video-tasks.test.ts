/** The gateway's video upstreams (packages/providers: DashScope async tasks, Ark content-generation tasks) against the simulator. */
import { GatewayError, type Channel, type VideoGenerationRequest } from '@unigate/contracts';
import { HttpClient, videoUpstreamFor, type VideoUpstream } from '@unigate/providers';
import { createSimulator, type Simulator } from '../src';

let sim: Simulator;
let http: HttpClient;
let channel: Channel;
let upstream: VideoUpstream;
const signal = new AbortController().signal;

beforeAll(async () => {
  sim = await createSimulator({ tokenDelayMs: 0 });
  http = new HttpClient();
  channel = { id: 'sim', protocol: 'dashscope', base_url: sim.url, api_key: 'sk-c', upstream_model: 'beta2.6-t2v', priority: 0, weight: 1 };
  upstream = videoUpstreamFor('dashscope', http)!;
});
afterAll(async () => {
  await http.close();
  await sim.close();
});
afterEach(() => fetch(`${sim.url}/_sim/faults`, { method: 'DELETE' }));

const request = (prompt: string): VideoGenerationRequest => ({
  model: 'beta2.6-t2v',
  duration: 5,
  resolution: '720p',
  input: { prompt },
  parameters: { size: '1280*720', duration: 5 },
});

describe('DashScope async video against the simulator', () => {
  it('submits, polls through queued and running, and links a real MP4', async () => {
    const { upstream_id } = await upstream.submit(channel, request('a lighthouse [sim:polls=2]'), signal);
    expect((await upstream.poll(channel, upstream_id, signal)).status).toBe('queued');
    expect((await upstream.poll(channel, upstream_id, signal)).status).toBe('running');
    const done = await upstream.poll(channel, upstream_id, signal);
    expect(done).toMatchObject({ status: 'succeeded', usage: { duration: 5 } });
    const mp4 = Buffer.from(await (await fetch(done.video_url!)).arrayBuffer());
    expect(mp4.subarray(4, 8).toString('latin1')).toBe('ftyp');
  });

  it('reports a failed task with the upstream code', async () => {
    const { upstream_id } = await upstream.submit(channel, request('doomed [sim:fail] [sim:polls=0]'), signal);
    expect(await upstream.poll(channel, upstream_id, signal)).toMatchObject({ status: 'failed', error: { code: 'InternalError.Algo' } });
  });

  it('an id the upstream forgot has failed', async () => {
    expect(await upstream.poll(channel, 'no-such-task', signal)).toMatchObject({ status: 'failed', error: { code: 'TaskExpired' } });
  });

  it('a 429 on submission is a retryable upstream error', async () => {
    await fetch(`${sim.url}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 429, count: 1 }),
    });
    const err = await upstream.submit(channel, request('busy'), signal).catch((e: unknown) => e);
    expect(GatewayError.is(err) && err.retryable).toBe(true);
  });
});

describe('Ark content-generation tasks against the simulator', () => {
  const ark = () => ({ ...channel, protocol: 'ark', upstream_model: 'kappa-seed-i2v' });
  const request = (prompt: string): VideoGenerationRequest => ({
    model: 'kappa-seed-i2v',
    duration: 5,
    resolution: '720p',
    input: { prompt, media: [{ type: 'first_frame', url: 'https://example.com/f.png' }] },
    parameters: { resolution: '720p', duration: 5, seed: 42 },
  });

  it('submits a cgt- task and polls it to a real MP4 with its seed', async () => {
    const arkUpstream = videoUpstreamFor('ark', http)!;
    const { upstream_id } = await arkUpstream.submit(ark(), request('a kite [sim:polls=1]'), signal);
    expect(upstream_id).toMatch(/^cgt-/);
    expect((await arkUpstream.poll(ark(), upstream_id, signal)).status).toBe('queued');
    const done = await arkUpstream.poll(ark(), upstream_id, signal);
    expect(done).toMatchObject({ status: 'succeeded', seed: 42, usage: { duration: 5 } });
    const mp4 = Buffer.from(await (await fetch(done.video_url!)).arrayBuffer());
    expect(mp4.subarray(4, 8).toString('latin1')).toBe('ftyp');
  });

  it('reports a failed task with the upstream code', async () => {
    const arkUpstream = videoUpstreamFor('ark', http)!;
    const { upstream_id } = await arkUpstream.submit(ark(), request('no [sim:fail] [sim:polls=0]'), signal);
    expect(await arkUpstream.poll(ark(), upstream_id, signal)).toMatchObject({
      status: 'failed',
      error: { code: 'OutputVideoSensitiveContentDetected' },
    });
  });
});
