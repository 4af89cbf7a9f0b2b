/**
 * `npm run bench` end to end, as its entry script runs (node scripts/bench/main.mjs), with the
 * simulator and the floor proxy as real processes and counts small enough for seconds: what it
 * measures, what it prints and writes, a target that cannot start (the others are still measured,
 * and the run fails), and a stop in the middle. Counts and structure only, never rates or times.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

const QUICK = {
  BENCH_QUICK: '1',
  BENCH_SEQUENTIAL: '20',
  BENCH_SEQUENTIAL_STREAM: '3',
  BENCH_SEQUENTIAL_LARGE: '5',
  BENCH_SEQUENTIAL_IDLE: '3',
  BENCH_FIRST_WARMUP: '1',
  BENCH_WARMUP: '1',
  BENCH_DURATION: '1',
};

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the bench with `env`; `onStderr` sees its progress lines as they come and may signal it. */
function bench(env: Record<string, string>, onStderr?: (text: string, signal: (s: NodeJS.Signals) => void) => void): Promise<Run> {
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'bench', 'main.mjs')], {
    cwd: ROOT,
    env: { ...process.env, ...QUICK, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => {
    stderr += c;
    onStderr?.(stderr, (s) => child.kill(s));
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/**
 * The processes (pids) whose environment holds `marker`: the bench and everything it started inherit
 * BENCH_RESULTS_DIR, a directory new for each test.
 */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(marker)) found.push(Number(entry));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

let resultsDir: string;
beforeEach(() => {
  resultsDir = mkdtempSync(join(tmpdir(), 'unigate-bench-results-'));
});
afterEach(() => rmSync(resultsDir, { recursive: true, force: true }));

describe('npm run bench (scripts/bench/main.mjs)', () => {
  it('measures each target it can start, writes and prints what it found, and fails the run for one it cannot', async () => {
    // A metrics token too short stops standalone at startup (http-settings.ts) while the others run.
    const run = await bench({ BENCH_TARGETS: 'direct,proxy,standalone', BENCH_RESULTS_DIR: resultsDir, UNIGATE_METRICS_TOKEN: 'short' });
    expect(run.code).toBe(1);

    const files = readdirSync(resultsDir);
    expect(files).toHaveLength(1);
    const path = join(resultsDir, files[0]);
    const results = JSON.parse(readFileSync(path, 'utf8'));
    expect(results.config.targets).toEqual(['direct', 'proxy', 'standalone']);
    expect(results.targets.standalone.error).toContain('did not become ready');
    expect(results.targets.standalone.error).not.toContain('\n');
    // The floor is measured alone; the proxy's requests each paired with one straight to the simulator.
    expect(results.targets.direct.sequential.json.target.total.n).toBe(20);
    expect(results.targets.direct.sequential.json.direct).toBeUndefined();
    expect(results.targets.proxy.sequential.json.target.total.n).toBe(20);
    expect(results.targets.proxy.sequential.json.direct.total.n).toBe(20);
    expect(results.targets.proxy.sequential.stream.target.firstByte.n).toBe(3);
    expect(results.targets.proxy.sequential.large.target.total.n).toBe(5);
    expect(results.targets.proxy.sequential.idle.target.total.n).toBe(3);
    expect(results.targets.proxy.throughput.json.ok).toBeGreaterThan(0);
    expect(results.targets.proxy.throughput.stream.ok).toBeGreaterThan(0);
    // Neither the floor nor the proxy keeps state that could decay: no such run, and no such table.
    expect(results.targets.proxy.decay).toBeUndefined();
    expect(results.targets.proxy.rss).toEqual([expect.objectContaining({ name: 'proxy' })]);
    expect(results.headToHead).toBeUndefined();

    expect(run.stdout).toContain(`- Full results: \`${path}\`.`);
    expect(run.stdout).toMatch(/\| proxy +\| 20 \|/);
    expect(run.stdout).toContain('**Max throughput**');
    expect(run.stdout).not.toContain('**No decay**');
    // Nothing of standalone was measured, so no target is judged.
    expect(run.stdout).not.toContain('**Targets**');
    expect(run.stdout).toContain('**standalone not measured:** standalone');
    expect(run.stderr).toContain('standalone: not measured:');
    expect(processesWith(`BENCH_RESULTS_DIR=${resultsDir}`)).toEqual([]);
  });

  it('refuses a setting it cannot run with in one line, before starting anything', async () => {
    const run = await bench({ BENCH_TARGETS: 'direct,litellm', BENCH_RESULTS_DIR: resultsDir });
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(
      'bench: BENCH_TARGETS: unknown target(s) litellm; known: direct, proxy, standalone, distributed, portkey',
    );
    expect(run.stdout).toBe('');
  });

  it('stops everything it started on SIGTERM, and writes no results', async () => {
    const marker = `BENCH_RESULTS_DIR=${resultsDir}`;
    let running: number[] | undefined;
    const run = await bench({ BENCH_TARGETS: 'proxy', BENCH_RESULTS_DIR: resultsDir }, (text, signal) => {
      if (running || !text.includes('proxy: warm-up')) return;
      running = processesWith(marker);
      signal('SIGTERM');
    });
    // The bench itself, the simulator and the proxy.
    expect(running).toHaveLength(3);
    expect(run.code).toBe(130);
    expect(run.stderr).toContain('SIGTERM: stopping everything it started');
    expect(processesWith(marker)).toEqual([]);
    expect(readdirSync(resultsDir)).toEqual([]);
  });
});
