/**
 * What an operator reads, as a client could try to spoil it: a client's made-up model names and paths
 * must not become metric series, and no key, token or prompt may reach a log line (at the most
 * verbose level) or an exported span.
 */
import { metricSeries, scrapeMetrics } from '@unigate/testing';
import { eventually } from './support/admin';
import { tracedStack } from './support/otlp-collector';
import { startStandalone } from './support/stacks';

describe('standalone: observability a client cannot spoil', () => {
  const traced = tracedStack(startStandalone, { LOG_LEVEL: 'trace' });

  const post = (key: string, body: unknown) =>
    fetch(`${traced.stack.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  /** The gateway's JSON log lines so far. */
  const logLines = () =>
    traced.stack.processes[0]
      .logs()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it("writes one access line per request, which the answer's x-request-id finds", async () => {
    const { stack } = traced;
    const ok = await post(stack.apiKey, { model: 'sigma-sonnet-4-6', messages: [{ role: 'user', content: 'access line' }] });
    await ok.text();
    const refused = await post(stack.apiKey, { model: 'sigma-sonnet-4-6', messages: 'not a list' });
    await refused.text();
    await (await fetch(`${stack.origin}/health/ready`)).text();
    const lines = () => logLines().filter((l) => l.msg === 'request');
    const line = async (id: string | null) => (await eventually(async () => lines().find((l) => l.request_id === id), Boolean))!;
    expect(await line(ok.headers.get('x-request-id'))).toMatchObject({
      level: 'info',
      method: 'POST',
      route: '/v1/chat/completions',
      status: 200,
      ms: expect.any(Number),
      key_id: expect.any(String),
    });
    expect(await line(refused.headers.get('x-request-id'))).toMatchObject({ route: '/v1/chat/completions', status: 400 });
    // Probes and scrapes come every few seconds: they make no access lines.
    expect(lines().filter((l) => String(l.route).startsWith('/health'))).toEqual([]);
  });

  it('warns, with the request id, when a stream the access line counts as 200 broke off after it began', async () => {
    const { stack } = traced;
    await fetch(`${stack.simUrl}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ match: { path: '/v1/messages', model: 'sigma-sonnet-4-6' }, cut_after_chunks: 3, count: 1 }),
    });
    const res = await post(stack.apiKey, { model: 'sigma-sonnet-4-6', stream: true, messages: [{ role: 'user', content: 'cut me off' }] });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('"error"');
    const id = res.headers.get('x-request-id');
    const lines = () => logLines().filter((l) => l.request_id === id);
    const warning = await eventually(async () => lines().find((l) => l.msg === 'stream broke off after it began'), Boolean);
    expect(warning).toMatchObject({ level: 'warn', model: 'sigma-sonnet-4-6', status: 502, sent: expect.any(Number) });
    // The access line follows once the response has closed.
    expect(await eventually(async () => lines().find((l) => l.msg === 'request'), Boolean)).toMatchObject({ status: 200 });
  });

  it('keeps metric labels to the catalogue and the routes, and secrets out of logs and spans', async () => {
    const { stack, collector } = traced;
    const prompt = `prompt-${Math.random().toString(36).slice(2)}`;
    const wrongKey = `sk-wrong${Math.random().toString(36).slice(2)}`;
    const invented = [1, 2, 3].map((i) => `invented-model-${i}-${Math.random().toString(36).slice(2)}`);
    const ids = [1, 2, 3].map(() => Math.random().toString(36).slice(2));

    const ok = await post(stack.apiKey, { model: 'sigma-sonnet-4-6', messages: [{ role: 'user', content: prompt }] });
    expect(ok.status).toBe(200);
    await ok.text();
    for (const model of invented) {
      const res = await post(stack.apiKey, { model, messages: [{ role: 'user', content: prompt }] });
      expect(res.status).toBe(404);
      await res.text();
    }
    for (const id of ids) await (await fetch(`${stack.baseURL}/responses/${id}`, { method: 'DELETE' })).text();
    for (const id of ids) await (await fetch(`${stack.origin}/${id}`)).text();
    expect((await post(wrongKey, { model: 'sigma-sonnet-4-6', messages: [] })).status).toBe(401);

    const metrics = await scrapeMetrics(stack.origin, stack.adminToken);
    for (const made of [...invented, ...ids]) expect(metrics).not.toContain(made);
    expect(metricSeries(metrics, 'unigate_rejections_total', { model: 'other', reason: '404' })[0]?.value).toBeGreaterThanOrEqual(3);
    // Every route label is a registered path (its parameters as :name) or "unmatched".
    for (const { labels } of metricSeries(metrics, 'unigate_http_requests_total'))
      expect(labels.route).toMatch(/^(\/[a-z0-9_.:/-]*|unmatched)$/i);

    await eventually(
      async () => collector.spans.some((s) => s.service === 'unigate-standalone' && s.attributes['url.path'] === '/v1/chat/completions'),
      Boolean,
    );
    // The request's server span is named by its route and carries the id the client got back.
    const requestId = ok.headers.get('x-request-id');
    const server = await eventually(async () => collector.spans.find((s) => s.attributes['unigate.request_id'] === requestId), Boolean);
    expect(server).toMatchObject({ name: 'POST /v1/chat/completions', attributes: { 'http.route': '/v1/chat/completions' } });
    const exported = JSON.stringify(collector.spans);
    const logs = stack.processes[0].logs();
    for (const secret of [stack.apiKey, stack.adminToken, wrongKey, prompt]) {
      expect(exported).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
  });
});
