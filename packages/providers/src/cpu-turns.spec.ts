import { CpuTurns } from './cpu-turns';

/** Keeps the thread busy for `ms` (a slice of CPU work). */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/**
 * Three calls of four slices each, while a timer re-arms itself: the timers phase runs once per loop
 * iteration, and a 2 ms slice always lets a 1 ms timer expire, so the log shows what each iteration ran.
 */
async function interleaving(next: () => Promise<void>): Promise<string> {
  const log: string[] = [];
  let running = true;
  const tick = () => {
    log.push('|');
    if (running) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  await new Promise((r) => setTimeout(r, 5));
  await Promise.all(
    ['a', 'b', 'c'].map(async (name) => {
      for (let i = 0; i < 4; i++) {
        await next();
        busy(2);
        log.push(name);
      }
    }),
  );
  running = false;
  // Iterations: runs of slices between two timer ticks.
  return log.join('').replace(/\|+/g, '|');
}

test('concurrent callers get one slice per loop iteration between them, in turn', async () => {
  const turns = new CpuTurns();
  const seen = await interleaving(() => turns.next());
  const iterations = seen.split('|').filter(Boolean);
  expect(iterations.every((slices) => slices.length === 1)).toBe(true);
  expect(iterations.join('')).toBe('abcabcabcabc');
});

test('each caller yielding on its own runs every caller’s slice in the same iteration (what the turns prevent)', async () => {
  const seen = await interleaving(() => new Promise((r) => setImmediate(r)));
  expect(seen.split('|').some((slices) => slices.length === 3)).toBe(true);
});
