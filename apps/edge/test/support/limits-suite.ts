/**
 * Per-key limits end to end (docs/limits.md), against any deployment: requests are spread
 * round-robin over every edge of the stack (three replicas sharing Redis in the distributed test,
 * the one process in standalone), so "exact" means exact across replicas.
 */
import OpenAI from 'openai';
import { Admin, eventually } from './admin';
import { metricSum, scrapeMetrics } from '@unigate/testing';
import type { Edge, Stack } from './stacks';

const MODEL = 'sigma-sonnet-4-6';

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
  edge: number;
}

export function limitsSuite(start: () => Promise<Stack>) {
  let stack: Stack;
  let admin: Admin;
  const edge = (i: number): Edge => stack.edges[i % stack.edges.length];

  beforeAll(async () => {
    stack = await start();
    admin = new Admin(stack);
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  });

  afterEach(async () => {
    await fetch(`${stack.simUrl}/_sim/faults`, { method: 'DELETE' });
  });

  async function chat(i: number, key: string, content = 'hello', extra: object = {}): Promise<Answer> {
    const res = await fetch(`${edge(i).baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content }], max_tokens: 8, ...extra }),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown>, edge: i % stack.edges.length };
  }

  const fault = (rule: object) =>
    fetch(`${stack.simUrl}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ match: { model: MODEL }, ...rule }),
    });

  /** How many requests carrying `marker` reached the upstream. */
  async function upstreamSaw(marker: string): Promise<number> {
    const log = (await (await fetch(`${stack.simUrl}/_sim/requests`)).json()) as { data: Array<{ body: unknown }> };
    return log.data.filter((r) => JSON.stringify(r.body ?? '').includes(marker)).length;
  }

  /** unigate_rejections_total{reason="429"} for the model, summed over every edge. */
  async function throttledCount(): Promise<number> {
    let sum = 0;
    for (const e of stack.edges)
      sum += metricSum(await scrapeMetrics(e.origin, stack.adminToken), 'unigate_rejections_total', { model: MODEL, reason: '429' });
    return sum;
  }

  function expectShapeA429(a: Answer, retryAfter: { min: number; max: number }) {
    expect(a.status).toBe(429);
    expect(Object.keys(a.body).sort()).toEqual(['code', 'message', 'request_id']);
    expect(a.body.code).toBe('Throttling.RateQuota');
    expect(a.body.request_id).toBe(a.headers.get('x-request-id'));
    const seconds = Number(a.headers.get('retry-after'));
    expect(Number.isInteger(seconds)).toBe(true);
    expect(seconds).toBeGreaterThanOrEqual(retryAfter.min);
    expect(seconds).toBeLessThanOrEqual(retryAfter.max);
    expect(a.headers.get('x-should-retry')).toBe('true');
  }

  it('rate_limit_rpm N: exactly N of a burst spread over the edges get through; the rest are 429 Shape A with Retry-After, never reaching upstream or billing', async () => {
    const N = 4;
    const { accountId, key } = await admin.fundedKey(10, { rate_limit_rpm: N });
    const throttledBefore = await throttledCount();
    const marker = `rate-${Date.now()}`;
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => chat(i, key, `${marker} #${i}`)));

    expect(answers.filter((a) => a.status === 200)).toHaveLength(N);
    const throttled = answers.filter((a) => a.status !== 200);
    expect(throttled).toHaveLength(12 - N);
    for (const a of throttled) expectShapeA429(a, { min: 1, max: 60 });
    expect(String(throttled[0].body.message)).toMatch(/4 requests per minute/);

    expect(await upstreamSaw(marker)).toBe(N);
    const ledger = await eventually(
      () => admin.usage(accountId),
      (e) => e.length >= N,
    );
    expect(ledger).toHaveLength(N);
    await eventually(throttledCount, (n) => n - throttledBefore === 12 - N);
    // Still throttled afterwards, on every edge.
    for (let i = 0; i < stack.edges.length; i++) expect((await chat(i, key)).status).toBe(429);
  });

  it('max_concurrency 2 with a slow upstream: the third concurrent request gets 429; completion gives the slots back', async () => {
    const { key } = await admin.fundedKey(10, { max_concurrency: 2 });
    await fault({ latency_ms: 3000, count: 2 });
    const marker = `slow-${Date.now()}`;
    const slow = [chat(0, key, `${marker} a`), chat(1, key, `${marker} b`)];
    // Both have reached the upstream, so both hold their slot (acquired before the upstream call).
    await eventually(
      () => upstreamSaw(marker),
      (n) => n === 2,
    );

    expectShapeA429(await chat(2, key, 'third'), { min: 1, max: 1 });
    expect((await Promise.all(slow)).map((a) => a.status)).toEqual([200, 200]);
    const after = await Promise.all([chat(2, key), chat(3, key)]);
    expect(after.map((a) => a.status)).toEqual([200, 200]);
  });

  it('a streaming client that disconnects gives its slot back without waiting for the upstream stream to end', async () => {
    const { key } = await admin.fundedKey(10, { max_concurrency: 2 });
    // Two slow streams (one chunk a second): each would run for tens of seconds.
    await fault({ token_delay_ms: 1000, count: 2 });
    const openStream = async (i: number) => {
      const client = new OpenAI({ baseURL: edge(i).baseURL, apiKey: key, maxRetries: 0 });
      const stream = await client.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: `Tell me a long story ${i}` }],
        stream: true,
      });
      const chunks = stream[Symbol.asyncIterator]();
      expect((await chunks.next()).done).toBe(false);
      let finished = false;
      const drained = (async () => {
        while (!(await chunks.next()).done);
        finished = true;
      })().catch(() => undefined);
      return { abort: () => stream.controller.abort(), finished: () => finished, drained };
    };
    const a = await openStream(0);
    const b = await openStream(1);
    expectShapeA429(await chat(2, key, 'third while two stream'), { min: 1, max: 1 });

    a.abort();
    await a.drained;
    const next = await eventually(
      () => chat(2, key, 'after a disconnect'),
      (r) => r.status !== 429,
      10_000,
    );
    expect(next.status).toBe(200);
    // b started together with a and streams just as slowly: a's upstream had not finished either.
    expect(b.finished()).toBe(false);

    b.abort();
    await b.drained;
    await eventually(
      async () => (await Promise.all([chat(0, key, 'x'), chat(1, key, 'y')])).map((r) => r.status),
      (s) => s.every((v) => v === 200),
      10_000,
    );
  });

  it('refusals right after a served request (over a hop the call travels while it is admitted) never reach the upstream: JSON and streams, 429 and 402', async () => {
    const { key: served } = await admin.fundedKey(10);
    const marker = `refused-${Date.now()}`;
    const refused: Array<{ key: string; status: number; stream: boolean }> = [];
    for (const stream of [false, true]) {
      // A key refused a moment ago is admitted first again: one key per refusal.
      const { key: spent } = await admin.fundedKey(10, { rate_limit_rpm: 1 });
      expect((await chat(0, spent, `${marker} allowed`)).status).toBe(200);
      refused.push({ key: spent, status: 429, stream }, { key: (await admin.fundedKey(0.000001)).key, status: 402, stream });
    }
    for (const r of refused) {
      // The served request leaves the edge's connection to the service warm and idle for the next.
      expect((await chat(0, served)).status).toBe(200);
      const a = await chat(0, r.key, `${marker} ${r.status} ${r.stream}`, { max_tokens: 1000, ...(r.stream && { stream: true }) });
      expect(a.status).toBe(r.status);
    }
    expect(await upstreamSaw(marker)).toBe(2);
    expect((await chat(0, served)).status).toBe(200);
  });

  it("PATCH /admin/v1/keys/{id} raises a throttled key's limits on every edge at once, without waiting for the key cache's TTL", async () => {
    const { keyId, key } = await admin.fundedKey(10, { rate_limit_rpm: 1, max_concurrency: 1 });
    // Every edge caches the key's principal (limits included): one admission, then 429 everywhere.
    expect((await chat(0, key)).status).toBe(200);
    for (let i = 0; i < stack.edges.length; i++) expectShapeA429(await chat(i, key), { min: 1, max: 60 });

    // Validated as on create; nothing to change, or an unknown key, changes nothing.
    expect(await admin.call('PATCH', `/keys/${keyId}`, {})).toMatchObject({ status: 400 });
    expect(await admin.call('PATCH', `/keys/${keyId}`, { models: ['no-such-model'] })).toMatchObject({
      status: 400,
      body: { error: { param: 'models[0]' } },
    });
    expect(await admin.call('PATCH', `/keys/${keyId}`, { max_concurrency: 0 })).toMatchObject({ status: 400 });
    expect(await admin.call('PATCH', '/keys/00000000-0000-4000-8000-000000000000', { rate_limit_rpm: 100 })).toMatchObject({ status: 404 });
    expectShapeA429(await chat(0, key), { min: 1, max: 60 });

    const patched = await admin.call<Record<string, unknown>>('PATCH', `/keys/${keyId}`, { rate_limit_rpm: 100, max_concurrency: 2 });
    expect(patched).toEqual({
      status: 200,
      body: {
        id: keyId,
        account_id: expect.any(String),
        name: null,
        prefix: expect.stringMatching(/^sk-/),
        models: null,
        rate_limit_rpm: 100,
        max_concurrency: 2,
        created_at: expect.any(String),
      },
    });
    expect(JSON.stringify(patched.body)).not.toContain(key.slice(3));
    // Each edge dropped its cached principal (the key-stale event, as on revocation): far sooner than
    // the 30 s TTL, or the 15 s after which a cached key is looked up again in the background.
    const patchedAt = Date.now();
    for (let i = 0; i < stack.edges.length; i++)
      await eventually(
        () => chat(i, key),
        (a) => a.status === 200,
        5_000,
      );
    expect(Date.now() - patchedAt).toBeLessThan(5_000);
    // The concurrency went from 1 to 2: two slow requests at once both get through.
    await fault({ latency_ms: 1000, count: 2 });
    expect((await Promise.all([chat(0, key, 'slow a'), chat(1, key, 'slow b')])).map((a) => a.status)).toEqual([200, 200]);

    // An empty name is no name, on both deployments (proto3 carries no null between them).
    expect(await admin.call('PATCH', `/keys/${keyId}`, { name: 'ci' })).toMatchObject({ status: 200, body: { name: 'ci' } });
    expect(await admin.call('PATCH', `/keys/${keyId}`, { name: '' })).toMatchObject({ status: 200, body: { name: null } });

    expect((await admin.call('DELETE', `/keys/${keyId}`)).status).toBe(204);
    expect(await admin.call('PATCH', `/keys/${keyId}`, { rate_limit_rpm: 1 })).toMatchObject({ status: 404 });
  });

  it('a request refused with 402 gives its slot back', async () => {
    const { key } = await admin.fundedKey(0.000001, { max_concurrency: 1 });
    for (let i = 0; i < 3; i++) {
      const a = await chat(i, key, 'too expensive', { max_tokens: 1000 });
      expect(a.status).toBe(402);
    }
  });
}
