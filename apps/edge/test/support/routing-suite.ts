/**
 * UNIGATE_CONFIG routes a model to any OpenAI-compatible upstream with a key taken from an env var,
 * and fails over between channels before the first byte. Two extra simulators play the vendors.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulator } from '@unigate/upstream-sim';
import OpenAI from 'openai';
import { Admin, eventually } from './admin';
import { metricSum, scrapeMetrics } from '@unigate/testing';
import type { Stack } from './stacks';
import { json } from './use-stack';

type Sim = Awaited<ReturnType<typeof createSimulator>>;
interface LoggedRequest {
  headers: Record<string, string>;
  body: { model?: string; messages?: Array<{ content?: string }> };
}

const PRIMARY_KEY = 'sk-primary-vendor-secret-0123456789';
const BACKUP_KEY = 'sk-backup-vendor-secret-9876543210';

export function routingSuite(start: (env: Record<string, string>) => Promise<Stack>) {
  let stack: Stack;
  let primary: Sim;
  let backup: Sim;

  beforeAll(async () => {
    [primary, backup] = await Promise.all([createSimulator({ port: 0 }), createSimulator({ port: 0 })]);
    const dir = mkdtempSync(join(tmpdir(), 'unigate-config-'));
    const config = join(dir, 'unigate.yaml');
    writeFileSync(
      config,
      [
        'providers:',
        `  - { name: primary, protocol: openai-chat, base_url: "${primary.url}/v1", api_key_env: UG_TEST_PRIMARY_KEY }`,
        `  - { name: backup, protocol: openai-chat, base_url: "${backup.url}/v1", api_key_env: UG_TEST_BACKUP_KEY }`,
        'models:',
        '  sigma-opus-4-7:',
        '    channels:',
        '      - { provider: primary, upstream_model: vendor-opus, priority: 10 }',
        '      - { provider: backup, upstream_model: backup-opus, priority: 0 }',
      ].join('\n'),
    );
    stack = await start({ UNIGATE_CONFIG: config, UG_TEST_PRIMARY_KEY: PRIMARY_KEY, UG_TEST_BACKUP_KEY: BACKUP_KEY });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await Promise.all([primary?.close(), backup?.close()]);
  });

  const log = async (sim: Sim): Promise<LoggedRequest[]> => (await json(await fetch(`${sim.url}/_sim/requests`))).data;
  const fault = (sim: Sim, rule: object) =>
    fetch(`${sim.url}/_sim/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rule) });
  const sent = (requests: LoggedRequest[], marker: string) => requests.find((r) => JSON.stringify(r.body.messages).includes(marker));

  it('sends the model to its configured upstream with the key from the environment and the upstream model name', async () => {
    const client = new OpenAI({ baseURL: stack.baseURL, apiKey: stack.apiKey, maxRetries: 0 });
    const r = await client.chat.completions.create({ model: 'sigma-opus-4-7', messages: [{ role: 'user', content: 'route-one' }] });
    expect(r.model).toBe('sigma-opus-4-7');
    const upstream = sent(await log(primary), 'route-one');
    expect(upstream?.headers.authorization).toBe(`Bearer ${PRIMARY_KEY}`);
    expect(upstream?.body.model).toBe('vendor-opus');
    expect(sent(await log(backup), 'route-one')).toBeUndefined();
  });

  it('fails over to the next channel when the first answers 503 before any byte, streaming included', async () => {
    const client = new OpenAI({ baseURL: stack.baseURL, apiKey: stack.apiKey, maxRetries: 0 });
    await fault(primary, { status: 503, count: 2 });
    const r = await client.chat.completions.create({ model: 'sigma-opus-4-7', messages: [{ role: 'user', content: 'route-two' }] });
    expect(r.choices[0].message.content?.length).toBeGreaterThan(0);
    const viaBackup = sent(await log(backup), 'route-two');
    expect(viaBackup?.headers.authorization).toBe(`Bearer ${BACKUP_KEY}`);
    expect(viaBackup?.body.model).toBe('backup-opus');

    let text = '';
    const stream = await client.chat.completions.create({
      model: 'sigma-opus-4-7',
      messages: [{ role: 'user', content: 'route-three' }],
      stream: true,
    });
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text.length).toBeGreaterThan(0);
    expect(sent(await log(backup), 'route-three')).toBeDefined();
  });

  it('answers 5xx in Shape B when every channel fails, gives the hold back and charges nothing', async () => {
    const admin = new Admin(stack);
    const { accountId, key } = await admin.fundedKey(2);
    await fault(primary, { status: 503, count: 1, message: 'primary overloaded' });
    await fault(backup, { status: 500, count: 1, message: 'backup broken' });
    const res = await fetch(`${stack.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sigma-opus-4-7', messages: [{ role: 'user', content: 'route-four' }] }),
    });
    expect([502, 503]).toContain(res.status);
    const body = await json(res);
    expect(body.error.message).toContain('backup broken');
    expect(body.error.type).toBeDefined();
    const account = await eventually(
      () => admin.account(accountId),
      (a) => a.reserved_usd === 0,
    );
    expect(account.balance_usd).toBe(2);
    expect(await admin.usage(accountId)).toEqual([]);
  });

  it('a client that leaves before its answer: no failover, no error or upstream failure in any log, and the request counts as 499', async () => {
    const count499 = async () =>
      metricSum(await scrapeMetrics(stack.origin, stack.adminToken), 'unigate_http_requests_total', { status: '499' });
    // Counted by the process that calls the upstream (chat in distributed mode) once the attempt has ended.
    const cancelled = async () =>
      metricSum(await scrapeMetrics(stack.originOf('chat'), stack.adminToken), 'unigate_upstream_requests_total', {
        model: 'sigma-opus-4-7',
        channel: 'primary',
        outcome: 'cancelled',
      });
    const before = await count499();
    const cancelledBefore = await cancelled();
    const logged = stack.processes.map((p) => p.logs().length);
    await fault(primary, { latency_ms: 3_000, count: 1 });
    await expect(
      fetch(`${stack.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'sigma-opus-4-7', messages: [{ role: 'user', content: 'route-gone' }] }),
        signal: AbortSignal.timeout(300),
      }),
    ).rejects.toThrow();
    await eventually(count499, (n) => n === before + 1);
    // The service's upstream attempt ends with the stop, a moment after the edge's answer: as cancelled.
    await eventually(cancelled, (n) => n === cancelledBefore + 1);
    expect(sent(await log(primary), 'route-gone')).toBeDefined();
    expect(sent(await log(backup), 'route-gone')).toBeUndefined();
    const since = stack.processes.map((p, i) => p.logs().slice(logged[i])).join('\n');
    expect(since).not.toMatch(/"level":"(error|fatal)"|"level":(50|60)\b/);
    expect(since).not.toContain('upstream attempt failed');
  });

  it('never writes an upstream key into its logs', () => {
    const logs = stack.processes.map((p) => p.logs()).join('\n');
    expect(logs).not.toContain(PRIMARY_KEY);
    expect(logs).not.toContain(BACKUP_KEY);
    expect(logs).not.toContain(stack.apiKey);
  });
}
