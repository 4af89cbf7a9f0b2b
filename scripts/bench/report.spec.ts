/**
 * The bench's verdicts: the targets table must call a target met only when the run shows it, and say
 * when a run cannot tell.
 */
import { markdown, summarizeRun } from './report.mjs';

type Interval = { low: number | null; high: number | null };
/** A latency summary (µs) with its percentiles' bounds. */
const side = (p50: number, p99: number, p50Interval: Interval, p99Interval: Interval) => ({ n: 3000, p50, p99, p50Interval, p99Interval });
/** The floor: 400 µs p50 (±20), 2,000 µs p99 (1,800 … 2,300). */
const direct = () => side(400, 2000, { low: 380, high: 420 }, { low: 1800, high: 2300 });

/** A gateway's results: its sequential sides against the floor, its throughput and the rest. */
function gateway(json: ReturnType<typeof side>, firstByte: ReturnType<typeof side>, extra: object = {}) {
  return {
    sequential: {
      json: { target: { total: json, firstByte: json }, direct: { total: direct(), firstByte: direct() } },
      stream: { target: { total: firstByte, firstByte }, direct: { total: direct(), firstByte: direct() } },
    },
    ...extra,
  };
}
const load = (rps: number) => ({ rps, latency: { p50: 16000, p99: 46000 }, non2xx: 0, errors: 0 });
const throughput = (json: number, stream: number) => ({ json: load(json), stream: load(stream) });

function run() {
  const targets = {
    // p50 overhead 350 (interval 290 … 400): within 500. p99 overhead 2,500 (1,200 … 4,200): spans 2,000.
    standalone: gateway(side(750, 4500, { low: 710, high: 800 }, { low: 3500, high: 6000 }), direct(), {
      throughput: throughput(3600, 700),
      decay: { windows: [load(3000), load(2900), load(2400)] },
    }),
    // p50 overhead 1,800 (1,740 … 1,870): all of it beyond 1,500. First byte p50 overhead 1,000: within 2,000.
    distributed: gateway(
      side(2200, 6000, { low: 2160, high: 2250 }, { low: 5000, high: null }),
      side(1400, 3000, { low: 1350, high: 1450 }, { low: 2800, high: 3400 }),
      {
        throughput: throughput(1800, 600),
        rss: [
          { name: 'edge', maxMiB: 141 },
          { name: 'chat', maxMiB: 152 },
        ],
      },
    ),
    portkey: gateway(side(1300, 7000, { low: 1250, high: 1350 }, { low: 6000, high: 8000 }), direct(), {
      throughput: throughput(1500, 800),
    }),
  };
  return { targets, summary: summarizeRun(targets) };
}

/** The markdown of a run, with a head to head when given. */
function report({ targets }: ReturnType<typeof run>, versus?: object) {
  return markdown(
    {
      targets,
      summary: summarizeRun(targets, versus),
      ...(versus && { headToHead: versus }),
      startedAt: '2026-11-27T00:00:00.000Z',
      durationSeconds: 1,
      loadavgAtEnd: [1],
      environment: { commit: 'abc1234', dirty: false, cpus: 2, cpuModel: 'test', memGiB: 24, node: 'v20', loadavgAtStart: [1] },
      config: {
        model: 'omega-k3',
        maxTokens: 32,
        quick: false,
        connections: 64,
        durationSeconds: 10,
        warmupSeconds: 2,
        decay: { seconds: 60, windows: 6 },
        headToHead: { rounds: 2, sliceSeconds: 3, windows: 3 },
      },
    },
    'bench/results/x.json',
  );
}

describe('the targets table', () => {
  it('judges each target by its interval, and by its value where it has none', () => {
    const verdicts = Object.fromEntries(run().summary.targets.map((t: { name: string; verdict: string }) => [t.name, t.verdict]));
    expect(verdicts).toEqual({
      'standalone overhead p50': 'met',
      'standalone overhead p99': 'undecided',
      'standalone req/s, non-streaming': 'met',
      'standalone no decay (last / first window)': 'missed',
      'distributed overhead p50': 'missed',
      'distributed stream first-byte overhead p50': 'met',
      'distributed RSS, largest service': 'missed',
    });
  });

  it('carries the overhead intervals it judged by', () => {
    const p99 = run().summary.targets.find((t: { name: string }) => t.name === 'standalone overhead p99');
    expect(p99).toMatchObject({ value: 2500, interval: { low: 1200, high: 4200 } });
  });

  it('judges by the value alone for results written before percentiles had bounds', () => {
    const old = run().targets;
    for (const t of Object.values(old))
      for (const kase of Object.values(t.sequential))
        for (const s of [kase.target.total, kase.direct.total]) {
          delete (s as Partial<ReturnType<typeof side>>).p50Interval;
          delete (s as Partial<ReturnType<typeof side>>).p99Interval;
        }
    const p99 = summarizeRun(old).targets.find((t: { name: string }) => t.name === 'standalone overhead p99');
    expect(p99).toMatchObject({ value: 2500, verdict: 'missed' });
    expect(p99?.interval).toBeUndefined();
  });

  it('judges no decay by the interval of its first and last windows’ seconds when the run kept them', () => {
    const decay = (first: number[], last: number[]) => {
      const targets = run().targets;
      const window = (perSecond: number[]) => ({ ...load(perSecond.reduce((a, b) => a + b, 0) / perSecond.length), perSecond });
      Object.assign(targets.standalone, { decay: { windows: [window(first), load(3000), window(last)] } });
      return summarizeRun(targets).targets.find((t: { name: string }) => t.name === 'standalone no decay (last / first window)');
    };
    const steady = [3000, 3100, 2900, 3050, 2950, 3000, 3080, 2920, 3010, 2990];
    // A last window 12 % down in its mean, from two slow seconds among steady ones: the seconds cannot
    // tell a decay from noise.
    const bumpy = decay(steady, [3000, 3100, 1000, 3050, 2950, 1500, 3080, 2920, 3010, 2990]);
    expect(bumpy?.value).toBeLessThan(0.9);
    expect(bumpy).toMatchObject({ verdict: 'undecided' });
    expect(bumpy?.interval.low).toBeLessThan(0.9);
    expect(bumpy?.interval.high).toBeGreaterThanOrEqual(0.9);
    // The same rates throughout: met, the whole interval at or above 0.9.
    expect(decay(steady, [...steady].reverse())).toMatchObject({ verdict: 'met', interval: { low: expect.any(Number) } });
    // Every second of the last window 20 % down: missed.
    expect(
      decay(
        steady,
        steady.map((x) => x * 0.8),
      ),
    ).toMatchObject({ verdict: 'missed' });
    // Windows of two seconds (BENCH_QUICK) bound nothing: the value is judged.
    expect(decay([3000, 3000], [2600, 2600])).toMatchObject({ verdict: 'missed', interval: undefined });
  });

  it("prints each gateway's CPU per answer, first window → last, beside the simulator's, and — for runs without it", () => {
    const measured = run();
    const window = (rps: number, cpuUsPerRequest: Record<string, number>) => ({ ...load(rps), cpuUsPerRequest });
    Object.assign(measured.targets.standalone, {
      decay: {
        simulatorProcesses: ['upstream-sim'],
        windows: [
          window(3000, { standalone: 600, 'upstream-sim': 300 }),
          window(2500, { standalone: 640, 'upstream-sim': 310 }),
          window(2400, { standalone: 660, 'upstream-sim': 330 }),
        ],
      },
    });
    // A distributed run: its processes' CPU per answer adds up.
    Object.assign(measured.targets.distributed, {
      decay: {
        simulatorProcesses: ['upstream-sim'],
        windows: [
          window(1000, { edge: 900, chat: 1000, 'upstream-sim': 300 }),
          window(1000, { edge: 1000, chat: 1200, 'upstream-sim': 300 }),
        ],
      },
    });
    const text = report(measured);
    expect(text).toMatch(/\| standalone +\| 3,000 · 2,500 · 2,400 \| +0\.80× \| 600 → 660 \(1\.10×\) \| 300 → 330 \(1\.10×\) \|/);
    expect(text).toMatch(/\| distributed +\| 1,000 · 1,000 +\| +1\.00× \| 1,900 → 2,200 \(1\.16×\) \| 300 → 300 \(1\.00×\) \|/);
    // Results written before windows kept their CPU.
    expect(report(run())).toMatch(/\| standalone +\| 3,000 · 2,900 · 2,400 \| +0\.80× \| +— \| +— \|/);
  });

  it("judges the throughput ratio by the head-to-head rounds' interval when the run has them", () => {
    const ratio = (versus: object) =>
      summarizeRun(run().targets, versus).targets.find((t: { name: string }) => t.name === 'standalone req/s, non-streaming');
    // The separate throughput runs' 2.4× is not what is judged: the same minutes' rounds are.
    expect(ratio({ ratio: { median: 2.3, low: 1.9, high: 2.6 } })).toMatchObject({
      value: 2.3,
      interval: { low: 1.9, high: 2.6 },
      verdict: 'undecided',
    });
    expect(ratio({ ratio: { median: 2.5, low: 2.1, high: 2.9 } })).toMatchObject({ verdict: 'met' });
    expect(ratio({ ratio: { median: 1.7, low: 1.5, high: 1.95 } })).toMatchObject({ verdict: 'missed' });
    // Too few rounds to bound the median: the interval is open, so the run cannot tell.
    expect(ratio({ ratio: { median: 2.5, low: null, high: null } })).toMatchObject({ verdict: 'undecided' });
    // A head to head that failed leaves the separate runs' ratio.
    expect(ratio({ error: 'portkey did not start' })).toMatchObject({ value: 2.4, verdict: 'met' });
  });

  it('prints the head-to-head rounds, who went first, and the ratio with its interval', () => {
    const rounds = [
      { first: 'portkey', standalone: 2000, portkey: 1000, ratio: 2 },
      { first: 'standalone', standalone: 2600, portkey: 1000, ratio: 2.6 },
    ];
    const versus = { a: 'standalone', b: 'portkey', sliceSeconds: 3, warmupRounds: 1, rounds, ratio: { median: 2, low: 2, high: 2.6 } };
    const text = report(run(), versus);
    expect(text).toContain('loaded in turn: 2 rounds, after 1 uncounted, of a 3 s slice each');
    expect(text).toMatch(/\| 1 +\| portkey +\| +2,000 \| +1,000 \| +2\.00× \|/);
    expect(text).toMatch(/\| 2 +\| standalone +\| +2,600 \| +1,000 \| +2\.60× \|/);
    expect(text).toContain('Ratio standalone / portkey: median 2.00×, 95 % interval 2.00× … 2.60×');
    expect(text).toMatch(/\| standalone req\/s, non-streaming +\| ≥ 2× Portkey's \| +2\.00× \| +2\.00× … 2\.60× \| +met \|/);
    expect(report(run(), { error: 'portkey did not start' })).toContain('**Throughput head to head not measured:** portkey did not start');
  });

  it('prints what the gateway reported of its own overhead at p50 and p99 next to the measured overhead', () => {
    const measured = run();
    Object.assign(measured.targets.standalone.sequential.json.target, { reported: { n: 3000, p50: 310, p99: 980 } });
    expect(report(measured)).toMatch(/\| standalone +\| +3,000 \| +0\.750 \| +4\.500 \| +\+0\.350 \| +\+2\.500 \| +0\.310 \| +0\.980 \|/);
  });

  it('prints them before the other tables, with their intervals', () => {
    const measured = run();
    const { summary } = measured;
    const text = report(measured);
    expect(text.indexOf('**Targets**')).toBeLessThan(text.indexOf('**Sequential, non-streaming**'));
    expect(text).toMatch(/\| standalone overhead p99 +\| ≤ 2 ms +\| +\+2\.500 \| +\+1\.200 … \+4\.200 \| undecided \|/);
    expect(text).toMatch(/\| distributed overhead p50 +\| ≤ 1\.5 ms +\| +\+1\.800 \| +\+1\.740 … \+1\.870 \| +missed \|/);
    // The distributed p99 has no upper bound: its overhead's interval is open above.
    expect(summary.overheads.distributed.json.p99Interval).toEqual({ low: 2700, high: null });
  });
});
