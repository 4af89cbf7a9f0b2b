/** The event loop stays free: /health/live is probed while some work runs. */
import { metricSeries, scrapeMetrics } from '@unigate/testing';

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

/**
 * The longest a gateway's own event loop may stall while the fuzz suites' small hostile bodies run, as
 * eventLoopStallMs measures it: at most ~30 ms alone on 2 shared cores. A stall measured this way
 * still includes the time the process waited for a core: in fresh-clone CI, with the other jest
 * worker's stacks on the same cores, a task of ~55 ms alone (10,000 messages translated) measured
 * 252 ms. A frozen process stalls for seconds.
 */
export const GATEWAY_STALL_MS = 500;

/**
 * The longest the process behind `origin` kept its event loop from turning (ms) since the previous
 * call: its `nodejs_eventloop_lag_max_seconds`, the longest gap between two of the loop monitor's
 * samples beyond the interval it samples at (packages/platform's metrics), which a scrape reads and
 * resets. Measured by the process itself, so unlike a client-timed probe it does not carry the test
 * runner's scheduling. `/metrics` on the public port takes the admin token when no metrics token is set.
 */
export async function eventLoopStallMs(origin: string, adminToken: string): Promise<number> {
  const [lag] = metricSeries(await scrapeMetrics(origin, adminToken), 'nodejs_eventloop_lag_max_seconds');
  if (!lag) throw new Error('/metrics has no nodejs_eventloop_lag_max_seconds');
  return lag.value * 1000;
}
