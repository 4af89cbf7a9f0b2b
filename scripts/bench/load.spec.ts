/**
 * loadRun against a local server standing in for a target: what it counts (2xx answers only, every
 * status tallied), its windows, and its latency sample. Counts only, never rates or times.
 */
import { availableParallelism } from 'node:os';
import { loadRun } from './load.mjs';
import { localServers } from './local-servers';

const servers = localServers();
let origin: string;
let received = 0;

beforeAll(async () => {
  // Every fourth answer is a 429, the way a gateway refuses over its limit.
  origin = await servers.listen((req, res) => {
    req.resume();
    req.on('end', () => {
      const n = received++;
      res.writeHead(n % 4 === 3 ? 429 : 200, { 'content-type': 'application/json' });
      res.end('{"choices":[]}');
    });
  });
});
afterAll(() => servers.closeAll());

test('counts 2xx answers as served, tallies every status, and spreads the served ones over its windows', async () => {
  received = 0;
  const result = await loadRun(
    { origin, headers: {} },
    { model: 'omega-k3', maxTokens: 8, connections: 4 },
    { stream: false, seconds: 1, windows: 2 },
  );
  const statuses = result.statuses as Record<string, number>;
  expect(statuses['200']).toBeGreaterThan(0);
  expect(statuses['429']).toBeGreaterThan(0);
  expect(result.ok).toBe(statuses['200']);
  expect(result.non2xx).toBe(statuses['429']);
  expect(result.latency.n).toBe(result.ok);
  expect(result.errors).toBe(0);
  expect(result.rps).toBeCloseTo(result.ok / result.seconds, 6);
  expect(result.windows.map((w: { from: number; to: number }) => [w.from, w.to])).toEqual([
    [0, 0.5],
    [0.5, 1],
  ]);
  // Windows of half a second hold no whole second: no per-second counts.
  expect(result.windows.map((w: { perSecond: number[] }) => w.perSecond)).toEqual([[], []]);
  // An answer that lands after the last window's end is served but in no window.
  const inWindows = result.windows.reduce((sum: number, w: { rps: number }) => sum + w.rps * 0.5, 0);
  expect(Math.round(inWindows)).toBeLessThanOrEqual(result.ok);
  expect(Math.round(inWindows)).toBeGreaterThan(0);
});

test("counts each whole second of a window, and a window's seconds add up to its answers", async () => {
  const result = await loadRun(
    { origin, headers: {} },
    { model: 'omega-k3', maxTokens: 8, connections: 2 },
    { stream: false, seconds: 2, windows: 1 },
  );
  const [window] = result.windows as Array<{ rps: number; perSecond: number[] }>;
  expect(window.perSecond).toHaveLength(2);
  for (const count of window.perSecond) expect(count).toBeGreaterThan(0);
  expect(window.perSecond[0] + window.perSecond[1]).toBe(window.rps * 2);
});

test("with cpuOf, gives each window the CPU each process spent per answer, by the process's name", async () => {
  const result = await loadRun(
    { origin, headers: {} },
    { model: 'omega-k3', maxTokens: 8, connections: 2 },
    { stream: false, seconds: 2, windows: 2, cpuOf: [{ name: 'bench-and-server', pid: process.pid }] },
  );
  const windows = result.windows as Array<{ rps: number; cpuUsPerRequest: Record<string, number> }>;
  expect(windows).toHaveLength(2);
  for (const w of windows) {
    expect(Object.keys(w.cpuUsPerRequest)).toEqual(['bench-and-server']);
    // This process both sends and answers every request: some CPU for each, and no more than all the
    // machine's cores could give it in the window (10 ms ticks and a late timer: 10 % of slack).
    expect(w.cpuUsPerRequest['bench-and-server']).toBeGreaterThan(0);
    expect(w.cpuUsPerRequest['bench-and-server']).toBeLessThan((1.1 * availableParallelism() * 1_000_000) / w.rps);
  }
});

test('without windows it returns none', async () => {
  const result = await loadRun({ origin, headers: {} }, { model: 'omega-k3', maxTokens: 8, connections: 2 }, { stream: false, seconds: 1 });
  expect(result).not.toHaveProperty('windows');
  expect(result.ok).toBeGreaterThan(0);
});
