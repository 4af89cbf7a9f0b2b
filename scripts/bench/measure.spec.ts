/**
 * measureTarget against local servers standing in for the simulator (its chat endpoint and its
 * /_sim/requests log) and for a gateway that forwards to it: the order of its phases, which of them a
 * target gets (no no-decay run for the floor proxy or without direct calls), the sequential counts, and
 * the memory watch. Counts and order only, never rates or times.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { localServers } from './local-servers';
import { measureTarget, sequentialCases } from './measure.mjs';

const servers = localServers();
/** Each request the gateway received, by kind, in order of arrival. */
const kinds: string[] = [];
let simLog: Array<{ path: string }> = [];

const config = {
  model: 'omega-k3',
  maxTokens: 8,
  connections: 2,
  // autocannon runs whole seconds.
  firstWarmupSeconds: 1,
  warmupSeconds: 1,
  durationSeconds: 1,
  decay: { seconds: 1, windows: 2 },
  sequential: { json: 7, stream: 5, large: 3, idle: 4, idlePauseMs: 1, maxSeconds: 30, warmup: 2 },
  rssIntervalMs: 50,
};

function readJson(req: IncomingMessage): Promise<{ stream?: boolean; messages: unknown[] }> {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => resolve(JSON.parse(body)));
  });
}

function answer(res: ServerResponse, stream: boolean | undefined) {
  if (stream) {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end('data: {"choices":[]}\n\ndata: [DONE]\n\n');
  } else {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"choices":[]}');
  }
}

let simUrl: string;
let gateway: { name: string; origin: string; headers: Record<string, string>; processes: Array<{ name: string; pid: number }> };
let direct: { name: string; origin: string; headers: Record<string, string>; processes: Array<{ name: string; pid: number }> };

beforeAll(async () => {
  simUrl = await servers.listen(async (req, res) => {
    if (req.url === '/_sim/requests') {
      if (req.method === 'DELETE') simLog = [];
      res.end(JSON.stringify({ data: simLog }));
      return;
    }
    answer(res, (await readJson(req)).stream);
  });
  const origin = await servers.listen(async (req, res) => {
    const body = await readJson(req);
    kinds.push(body.stream ? 'stream' : body.messages.length > 1 ? 'large' : 'json');
    simLog.push({ path: req.url ?? '' });
    answer(res, body.stream);
  });
  gateway = { name: 'gw', origin, headers: {}, processes: [{ name: 'self', pid: process.pid }] };
  // Both stand-ins are this process; the simulator's is named as the simulator target names it.
  direct = { name: 'direct', origin: simUrl, headers: {}, processes: [{ name: 'upstream-sim', pid: process.pid }] };
});
afterAll(() => servers.closeAll());
beforeEach(() => {
  kinds.length = 0;
});

/** The kinds of requests in arrival order, each run of one kind once. */
const phases = () => kinds.filter((k, i) => k !== kinds[i - 1]);

describe('measureTarget', () => {
  it('checks the route, warms up streaming first, runs the no-decay run, then the sequential cases, then throughput per case', async () => {
    const result = await measureTarget(gateway, direct, simUrl, config);
    expect(result.upstreamPath).toBe('/v1/chat/completions');
    // check (json, stream) · warm-up stream · warm-up json, no-decay, sequential json · sequential stream ·
    // large · idle, throughput json · throughput stream
    expect(phases()).toEqual(['json', 'stream', 'json', 'stream', 'large', 'json', 'stream']);
    expect(result.decay.windows).toHaveLength(2);
    // Each window's CPU per answer, of the target's processes and of the simulator's, told apart.
    expect(result.decay.simulatorProcesses).toEqual(['upstream-sim']);
    for (const w of result.decay.windows) expect(Object.keys(w.cpuUsPerRequest)).toEqual(['self', 'upstream-sim']);

    const s = config.sequential;
    expect(kinds.filter((k) => k === 'large')).toHaveLength(s.warmup + s.large);
    for (const [name, kase] of sequentialCases(config) as Array<[string, { count: number }]>) {
      expect(result.sequential[name].target.total.n).toBe(kase.count);
      expect(result.sequential[name].direct.total.n).toBe(kase.count);
    }
    for (const name of ['json', 'stream']) {
      expect(result.throughput[name].ok).toBeGreaterThan(0);
      expect(result.throughput[name].errors).toBe(0);
    }

    const [rss] = result.rss;
    expect(rss).toMatchObject({ name: 'self', pid: process.pid });
    expect(rss.samples).toBeGreaterThan(2);
    expect(rss.maxMiB).toBeGreaterThanOrEqual(rss.endMiB);
  });

  it('gives the floor proxy no no-decay run', async () => {
    const result = await measureTarget({ ...gateway, floor: true }, direct, simUrl, config);
    expect(result).not.toHaveProperty('decay');
    expect(result.sequential.json.direct.total.n).toBe(config.sequential.json);
  });

  it('measures the simulator itself (no direct calls) without pairs or a no-decay run', async () => {
    const result = await measureTarget(gateway, null, simUrl, config);
    expect(result).not.toHaveProperty('decay');
    expect(result.sequential.json).not.toHaveProperty('direct');
    expect(result.sequential.json.target.total.n).toBe(config.sequential.json);
  });

  it('stops at a target whose calls do not reach the simulator, before any load', async () => {
    let received = 0;
    const elsewhere = await servers.listen(async (req, res) => {
      received += 1;
      answer(res, (await readJson(req)).stream);
    });
    await expect(measureTarget({ ...gateway, origin: elsewhere }, direct, simUrl, config)).rejects.toThrow(
      'gw: the simulator saw 0 requests for 2 sent through it',
    );
    expect(received).toBe(2);
  });
});
