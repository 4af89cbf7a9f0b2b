/**
 * UNIGATE_HEAP_GROWING_PERCENT (src/lifecycle/heap-growth.ts) applied to a real process: the same
 * allocation pattern, counted rather than timed, peaks at a smaller heap with the default than with
 * V8's own growth; and a service given a bad value refuses to start, naming it.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { appScript, ROOT, startNodeProcess, type NodeProcess } from '@unigate/testing';

const MODULE = join(ROOT, 'packages', 'platform', 'dist', 'lifecycle', 'heap-growth.js');

// Requests in flight as a rolling window of live objects; everything older is garbage.
const CHURN = `
require(process.argv[1]).applyHeapGrowth();
const live = [];
let peak = 0;
for (let round = 0; round < 3000; round++) {
  for (let i = 0; i < 1000; i++) live.push({ id: 'req-' + round + '-' + i, body: new Array(16).fill(i), meta: { round, i } });
  if (live.length > 30000) live.splice(0, 1000);
  peak = Math.max(peak, process.memoryUsage().heapTotal);
}
process.stdout.write(String(peak));
`;

const peakHeap = (percent: string | undefined) =>
  Number(
    execFileSync(process.execPath, ['-e', CHURN, MODULE], {
      env: { ...process.env, UNIGATE_HEAP_GROWING_PERCENT: percent },
      encoding: 'utf8',
    }),
  );

test('the default growth keeps the heap well below what V8 grows to on its own', () => {
  const v8Own = peakHeap('0');
  const byDefault = peakHeap(undefined);
  // Measured: ~100 MiB against ~72.
  expect(byDefault).toBeLessThan(v8Own * 0.85);
}, 60_000);

describe('a service given a bad UNIGATE_HEAP_GROWING_PERCENT', () => {
  let proc: NodeProcess | undefined;
  afterEach(() => proc?.stop());

  it('exits at start, naming the variable', async () => {
    proc = await startNodeProcess({
      name: 'catalog',
      script: appScript('catalog'),
      env: { UNIGATE_HEAP_GROWING_PERCENT: 'lots', LOG_LEVEL: 'info' },
    });
    const deadline = Date.now() + 20_000;
    while (!proc.exited() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(proc.exited()).toBe('exit code 1');
    expect(proc.logs()).toMatch(/UNIGATE_HEAP_GROWING_PERCENT must be a whole number/);
  }, 30_000);
});
