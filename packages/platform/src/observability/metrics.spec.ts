import { setTimeout as sleep } from 'node:timers/promises';
import { EVENT_LOOP_SAMPLE_MS, httpDuration, metricsRegistry } from './metrics';

/** The process's `nodejs_eventloop_lag_<stat>_seconds` as a scrape reads it (lag's collect first, as a scrape runs it). */
async function lag(): Promise<Record<string, number>> {
  const read = async (name: string) => (await metricsRegistry.getSingleMetric(name)!.get()).values[0]?.value ?? NaN;
  await read('nodejs_eventloop_lag_seconds');
  const out: Record<string, number> = {};
  for (const stat of ['min', 'max', 'p50', 'p99', 'stddev']) out[stat] = await read(`nodejs_eventloop_lag_${stat}_seconds`);
  return out;
}

describe('event-loop lag metrics', () => {
  it('report an idle loop near 0, not the interval they sample at', async () => {
    await lag(); // a read resets the histogram: what follows covers the idle second only
    await sleep(12 * EVENT_LOOP_SAMPLE_MS);
    const idle = await lag();
    // Node's histogram holds the whole interval (≥ 0.1 s): read raw, p50 would be ~0.100.
    expect(idle.p50).toBeLessThan(0.05);
    expect(idle.min).toBeGreaterThanOrEqual(0);
  });

  it('still report a stall of the loop as its length beyond the interval', async () => {
    await lag();
    await sleep(2 * EVENT_LOOP_SAMPLE_MS);
    const until = performance.now() + 400;
    while (performance.now() < until); // the loop held for 400 ms
    await sleep(2 * EVENT_LOOP_SAMPLE_MS);
    const stalled = await lag();
    expect(stalled.max).toBeGreaterThanOrEqual(0.3);
    expect(stalled.max).toBeLessThan(1);
  });
});

describe('request duration histogram', () => {
  it('tells apart requests of minutes, as long as an upstream may take (10 minutes to its headers)', async () => {
    httpDuration.labels('/spec').observe(90);
    httpDuration.labels('/spec').observe(400);
    const text = await metricsRegistry.getSingleMetricAsString('unigate_http_request_duration_seconds');
    const bucket = (le: string) => Number(new RegExp(`_bucket\\{le="${le}",route="/spec"\\} (\\d+)`).exec(text)?.[1]);
    expect(bucket('60')).toBe(0);
    expect(bucket('120')).toBe(1);
    expect(bucket('600')).toBe(2);
  });
});
