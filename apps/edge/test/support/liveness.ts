/** The event loop stays free: /health/live is probed while some work runs. */

/** Probes `${origin}/health/live` every `everyMs` while `work` runs: work's value and the slowest probe (ms). */
export async function probeLiveness<T>(origin: string, work: () => Promise<T>, everyMs = 50): Promise<{ value: T; slowestMs: number }> {
  let done = false;
  let slowestMs = 0;
  const probes = (async () => {
    while (!done) {
      const t = performance.now();
      const res = await fetch(`${origin}/health/live`);
      expect(res.status).toBe(200);
      slowestMs = Math.max(slowestMs, performance.now() - t);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  try {
    return { value: await work(), slowestMs };
  } finally {
    done = true;
    await probes;
  }
}
