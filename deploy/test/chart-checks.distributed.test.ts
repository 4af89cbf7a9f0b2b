/**
 * The chart's operational pieces against a real deployment (the distributed stack, as processes):
 * - the Grafana dashboard and the alerting rules: a real Prometheus scrapes every process under the
 *   labels the chart's ServiceMonitor gives them (namespace, job = the Service's name, pod), with the
 *   chart's rules loaded. Once the stack has served traffic, the dashboard's variables find the release,
 *   every panel's query returns series, and every rule evaluates without error;
 * - `helm test`'s smoke script (deploy/smoke-test.js), run as its pod runs it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAST_VIDEO_ENV, freePort, startDistributed, waitFor, type Stack } from '@unigate/testing';
import { stringify } from 'yaml';
import { CHART, NAMESPACE, PROMETHEUS, RELEASE, ROOT, ensureHelm, renderChart, run, type Manifest } from './support';

/** The release's full name: its Services' (and so its jobs') prefix. */
const FULLNAME = `${RELEASE}-unigate`;
const PROCESSES = ['edge', 'chat', 'billing', 'catalog', 'media', 'video'];
/** What Grafana puts for $__rate_interval at a 1 s scrape: a window that holds several scrapes. */
const RATE_INTERVAL = '15s';

interface Panel {
  title: string;
  type: string;
  targets?: Array<{ expr: string }>;
}
const dashboard = JSON.parse(readFileSync(join(CHART, 'dashboards', 'unigate.json'), 'utf8')) as {
  panels: Panel[];
  templating: { list: Array<{ name: string; definition?: string; regex?: string }> };
};

let stack: Stack;
let prometheus: ChildProcess | undefined;
let prometheusUrl: string;
let dir: string;

const query = async (expr: string): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>> => {
  const res = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(expr)}`);
  const body = (await res.json()) as { status: string; error?: string; data: { result: [] } };
  if (body.status !== 'success') throw new Error(`${expr}: ${body.error}`);
  return body.data.result;
};

/** A dashboard expression with Grafana's variables as they are for this release. */
const resolved = (expr: string) =>
  expr.replaceAll('$namespace', NAMESPACE).replaceAll('$release', FULLNAME).replaceAll('$__rate_interval', RATE_INTERVAL);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'unigate-monitoring-'));
  const [helm, started] = await Promise.all([ensureHelm(), startDistributed(FAST_VIDEO_ENV)]);
  stack = started;
  const rules = (await renderChart(helm, '--set', 'metrics.prometheusRule.enabled=true')).find(
    (o: Manifest) => o.kind === 'PrometheusRule',
  )!;
  writeFileSync(join(dir, 'rules.yaml'), stringify({ groups: rules.spec.groups }));
  writeFileSync(
    join(dir, 'prometheus.yml'),
    stringify({
      global: { scrape_interval: '1s', evaluation_interval: '1s' },
      rule_files: [join(dir, 'rules.yaml')],
      // As the Prometheus Operator scrapes the chart's ServiceMonitor: the edge's /metrics with the token.
      scrape_configs: PROCESSES.map((p) => ({
        job_name: `${FULLNAME}-${p}`,
        ...(p === 'edge' && { authorization: { credentials: stack.adminToken } }),
        static_configs: [{ targets: [new URL(stack.originOf(p)).host], labels: { namespace: NAMESPACE, pod: `${p}-0` } }],
      })),
    }),
  );
  const port = await freePort();
  prometheusUrl = `http://127.0.0.1:${port}`;
  prometheus = spawn(
    PROMETHEUS,
    [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
    { stdio: 'ignore' },
  );
  let failed: Error | undefined;
  prometheus.on('error', (err) => (failed = err));
  process.once('exit', () => prometheus?.kill('SIGKILL'));
  await waitFor(
    'every process scraped',
    async () => {
      if (failed) throw new Error(`${PROMETHEUS} did not start (.ci/run installs it from Debian's prometheus package): ${failed.message}`);
      return (await query('up == 1').catch(() => [])).length === PROCESSES.length;
    },
    30_000,
    200,
  );
}, 120_000);

afterAll(async () => {
  prometheus?.kill();
  await stack?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Traffic that gives every panel something to show: answers, a stream, refusals, an upstream failure,
 * a video task and its webhook.
 */
async function serveTraffic(): Promise<void> {
  const chat = (body: object) =>
    fetch(`${stack.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'omega-k3', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }], ...body }),
    });
  const fault = (rule?: object) =>
    fetch(`${stack.simUrl}/_sim/faults`, {
      method: rule ? 'POST' : 'DELETE',
      ...(rule && { headers: { 'content-type': 'application/json' }, body: JSON.stringify(rule) }),
    });
  await fault({ match: { model: 'omega-k3' }, status: 500 });
  expect((await chat({})).status).toBeGreaterThanOrEqual(500);
  await fault();
  for (let i = 0; i < 5; i++) expect((await chat({})).status).toBe(200);
  const stream = await chat({ stream: true });
  expect(stream.status).toBe(200);
  await stream.text();
  expect((await chat({ messages: [] })).status).toBe(400);
  await videoWithWebhook();
}

/** A video task polled to its end, its record delivered to a webhook that refuses the first attempt. */
async function videoWithWebhook(): Promise<void> {
  const statuses: number[] = [];
  const receiver = createServer((req, res) => {
    const status = statuses.length === 0 ? 503 : 204;
    statuses.push(status);
    req.resume().on('end', () => res.writeHead(status).end());
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  try {
    const res = await fetch(`${stack.baseURL}/videos/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'beta2.6-t2v',
        duration: 5,
        resolution: '720p',
        input: { prompt: 'a lighthouse [sim:polls=1]' },
        parameters: { size: '1280*720', duration: 5 },
        webhook_url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
      }),
    });
    expect([res.status, res.status === 202 ? '' : await res.text()]).toEqual([202, '']);
    await waitFor('the webhook delivered', async () => statuses.includes(204), 20_000, 100);
  } finally {
    receiver.close();
  }
}

it('every panel of the dashboard shows series of a deployment that served traffic, its variables naming the release', async () => {
  await serveTraffic();
  const targets = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: resolved(t.expr) })));
  expect(targets.length).toBeGreaterThanOrEqual(15);
  let empty: string[] = [];
  await waitFor(
    'every panel to show series',
    async () => {
      const counts = await Promise.all(targets.map(async (t) => (await query(t.expr)).length));
      empty = targets.filter((_t, i) => counts[i] === 0).map((t) => `${t.panel}: ${t.expr}`);
      return empty.length === 0;
    },
    20_000,
    500,
  ).catch((err: Error) => {
    throw new Error(`${err.message}; empty:\n${empty.join('\n')}`);
  });

  // The variables: label_values(...) as Grafana asks Prometheus for them, the release through its regex.
  const variable = (name: string) => dashboard.templating.list.find((v) => v.name === name)!;
  const labelValues = async (definition: string) => {
    const [, match, label] = /^label_values\((.*), (\w+)\)$/.exec(resolved(definition))!;
    const res = await fetch(`${prometheusUrl}/api/v1/label/${label}/values?match[]=${encodeURIComponent(match)}`);
    return ((await res.json()) as { data: string[] }).data;
  };
  expect(await labelValues(variable('namespace').definition!)).toEqual([NAMESPACE]);
  const jobs = await labelValues(variable('release').definition!);
  const pattern = new RegExp(variable('release').regex!.slice(1, -1));
  expect(jobs.flatMap((job) => pattern.exec(job)?.slice(1) ?? [])).toEqual([FULLNAME]);
});

it("evaluates every alerting rule of the chart on the deployment's series without error, firing none on a healthy one", async () => {
  const res = await fetch(`${prometheusUrl}/api/v1/rules`);
  const groups = (
    (await res.json()) as { data: { groups: Array<{ rules: Array<{ name: string; health: string; lastError?: string; state: string }> }> } }
  ).data.groups;
  const rules = groups.flatMap((g) => g.rules);
  expect(rules.map((r) => r.name).sort()).toEqual([
    'UnigateEventLoopBlocked',
    'UnigateServerErrors',
    'UnigateTargetDown',
    'UnigateUpstreamFailing',
    'UnigateUsageNotSettled',
    'UnigateVideoTasksFailing',
    'UnigateWebhooksGivenUp',
    'UnigateWorkloadMissing',
  ]);
  for (const rule of rules) expect([rule.name, rule.health, rule.lastError ?? '']).toEqual([rule.name, 'ok', '']);
  // The failure served above is one request in seven, within 'for': pending at most, never firing.
  expect(rules.filter((r) => r.state === 'firing')).toEqual([]);
  // Every workload is scraped under the job name the rules expect: once an evaluation has seen every
  // scrape (the first ones may come before them), none is even pending as missing.
  let missing: unknown;
  await waitFor(
    'no workload pending as missing',
    async () => {
      const res = await fetch(`${prometheusUrl}/api/v1/alerts`);
      const alerts = ((await res.json()) as { data: { alerts: Array<{ labels: Record<string, string> }> } }).data.alerts;
      missing = alerts.filter((a) => a.labels.alertname === 'UnigateWorkloadMissing').map((a) => a.labels.job);
      return (missing as string[]).length === 0;
    },
    10_000,
    250,
  ).catch((err: Error) => {
    throw new Error(`${err.message}: ${JSON.stringify(missing)}`);
  });
});

describe("helm test's smoke script", () => {
  const smoke = (env: Record<string, string>) => run(process.execPath, [join(ROOT, 'deploy', 'smoke-test.js')], env);
  const readyUrls = () => PROCESSES.map((p) => `${p}=${stack.originOf(p)}/health/ready`).join(',');

  it('passes on a ready deployment: every workload ready, and the bootstrap key served its models and balance', async () => {
    const result = await smoke({ UNIGATE_READY_URLS: readyUrls(), UNIGATE_EDGE_URL: stack.origin, UNIGATE_API_KEY: stack.apiKey });
    expect(result.stdout).toMatch(/^ok {4}GET \/v1\/models: \d+ models$/m);
    expect(result.stdout).toMatch(/^ok {4}GET \/v1\/dashboard\/billing\/subscription: hard limit [\d.]+ USD$/m);
    expect(result.stdout.match(/^ok {4}\w+ ready$/gm)).toHaveLength(PROCESSES.length);
    expect([result.code, result.stdout]).toEqual([0, expect.not.stringMatching(/FAIL/)]);
  });

  it('fails, after every check, on a workload that does not answer and a key the edge refuses', async () => {
    const gone = `http://127.0.0.1:${await freePort()}/health/ready`;
    const result = await smoke({
      UNIGATE_READY_URLS: `${readyUrls()},gone=${gone}`,
      UNIGATE_EDGE_URL: stack.origin,
      UNIGATE_API_KEY: 'sk-not-a-key-of-this-deployment-000',
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^FAIL {2}gone ready: fetch failed \(ECONNREFUSED\)$/m);
    expect(result.stdout).toMatch(/^FAIL {2}GET \/v1\/models: HTTP 401 /m);
    expect(result.stdout.match(/^ok {4}\w+ ready$/gm)).toHaveLength(PROCESSES.length);
  });
});
