/** Fault injection and the request log, through the /_sim control endpoints. */
import OpenAI from 'openai';
import { createSimulator, type Simulator } from '../src';

// Response bodies here are whatever the simulator sent; tests inspect them loosely.
// Bodies are checked field by field; their static type is deliberately loose.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = (r: Response): Promise<any> => r.json();
let sim: Simulator;
let client: OpenAI;

beforeAll(async () => {
  sim = await createSimulator({ tokenDelayMs: 1, requestLogLimit: 5 });
  client = new OpenAI({ baseURL: `${sim.url}/v1`, apiKey: 'sk-control-test', maxRetries: 0 });
});
afterAll(() => sim.close());
afterEach(async () => {
  await fetch(`${sim.url}/_sim/faults`, { method: 'DELETE' });
  await fetch(`${sim.url}/_sim/requests`, { method: 'DELETE' });
});

async function setFault(rule: unknown): Promise<Response> {
  return fetch(`${sim.url}/_sim/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rule) });
}

const ask = (model = 'sim-chat') => client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hello' }] });

describe('fault injection', () => {
  it('answers 429 for `count` requests, then succeeds', async () => {
    expect((await setFault({ status: 429, count: 1 })).status).toBe(201);
    const err = await ask().catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect(err.error).toMatchObject({ type: 'requests', code: 'rate_limit_exceeded' });
    const ok = await ask();
    expect(ok.choices[0].finish_reason).toBe('stop');
  });

  it('matches by model and uses the given message and status', async () => {
    await setFault({ match: { model: 'broken' }, status: 503, message: 'overloaded for the test' });
    const err = await ask('broken').catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.InternalServerError);
    expect(err.status).toBe(503);
    expect(err.error.message).toBe('overloaded for the test');
    await expect(ask('healthy')).resolves.toMatchObject({ object: 'chat.completion' });
    await expect(ask('broken')).rejects.toMatchObject({ status: 503 }); // unlimited by default
  });

  it('lets the SDK retry a 500 into a success', async () => {
    await setFault({ status: 500, count: 1 });
    const retrying = new OpenAI({ baseURL: `${sim.url}/v1`, apiKey: 'sk-x', maxRetries: 1 });
    await expect(retrying.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] })).resolves.toMatchObject({
      object: 'chat.completion',
    });
  });

  it('holds the answer for latency_ms (a hanging upstream when large)', async () => {
    await setFault({ latency_ms: 60_000, count: 1 });
    const abort = new AbortController();
    let settled = false;
    const pending = client.chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }, { signal: abort.signal })
      .then(
        () => (settled = true),
        (e) => e,
      );
    // The request has reached the simulator (it is logged) but no answer comes.
    while ((await fetch(`${sim.url}/_sim/requests`).then(json)).data.length === 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBe(false);
    abort.abort(); // the simulator drops its timer when the client goes away
    expect(await pending).toBeInstanceOf(OpenAI.APIUserAbortError);
  });

  it('cuts a stream after n content chunks without [DONE]', async () => {
    await setFault({ cut_after_chunks: 2, count: 1 });
    const stream = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'cut me' }], stream: true });
    const seen: string[] = [];
    const err = await (async () => {
      for await (const c of stream) seen.push(c.choices[0]?.delta.content ?? '');
    })().catch((e) => e);
    expect(String(err?.message)).toMatch(/terminated|closed|aborted/i);
    expect(seen.length).toBe(3); // the role chunk and two content chunks
    expect(seen.slice(1).every((s) => s.length > 0)).toBe(true);

    const raw = await fetch(`${sim.url}/_sim/faults`).then(json);
    expect(raw.data).toEqual([]); // count 1 consumed
  });

  it('rejects rules with unknown fields', async () => {
    const res = await setFault({ statuss: 429 });
    expect(res.status).toBe(400);
    expect((await json(res)).error.type).toBe('invalid_request_error');
  });
});

describe('request log', () => {
  it('records method, path, headers with authorization and body; bounded', async () => {
    await ask();
    const log = await fetch(`${sim.url}/_sim/requests`).then(json);
    expect(log.data).toHaveLength(1);
    expect(log.data[0]).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      headers: expect.objectContaining({ authorization: 'Bearer sk-control-test' }),
      body: { model: 'sim-chat', messages: [{ role: 'user', content: 'hello' }] },
    });

    for (let i = 0; i < 7; i++) await client.models.list();
    const bounded = await fetch(`${sim.url}/_sim/requests`).then(json);
    expect(bounded.data).toHaveLength(5);
    expect(bounded.data.every((r: { path: string }) => r.path === '/v1/models')).toBe(true);
    const last2 = await fetch(`${sim.url}/_sim/requests?last=2`).then(json);
    expect(last2.data).toHaveLength(2);

    const huge = 'x'.repeat(1024 * 1024 + 10);
    await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: huge }], max_tokens: 1 });
    const [bigEntry] = (await fetch(`${sim.url}/_sim/requests?last=1`).then(json)).data;
    expect(bigEntry.body._omitted_bytes).toBeGreaterThan(1024 * 1024);

    expect((await fetch(`${sim.url}/_sim/requests`, { method: 'DELETE' })).status).toBe(204);
    expect((await fetch(`${sim.url}/_sim/requests`).then(json)).data).toEqual([]);
  });
});
