/**
 * bench:compare's rounds against three local servers standing in for the simulator and two builds:
 * who goes first in each round, what is recorded (the warm-up is not), that each round's difference
 * pairs the two builds' requests of that round, and what is timed for a stream (its first event).
 * The one timing they rely on is a delay of DELAY_MS that one side adds, far above loopback's noise.
 */
import { chatStub, localServers, type ChatStubOptions, type StubTarget } from './local-servers';
import { compareTable, ORDERS, pairedRounds } from './paired-rounds.mjs';

const DELAY_MS = 40;
const servers = localServers();
const arrivals: string[] = [];

/** A chat endpoint logging each arrival under `name` (chatStub). */
const side = (name: string, opts: ChatStubOptions = {}) => chatStub(servers, arrivals, name, opts);

const config = (warmup: number) => ({ model: 'omega-k3', maxTokens: 8, sequential: { warmup, maxSeconds: 30 } });

let direct: StubTarget;
let baseline: StubTarget;
let slower: StubTarget;
beforeAll(async () => {
  direct = await side('direct');
  baseline = await side('baseline');
  slower = await side('current', { delayMs: DELAY_MS });
});
afterAll(() => servers.closeAll());
beforeEach(() => {
  arrivals.length = 0;
});

describe('pairedRounds', () => {
  it('sends each round to all three sides in the six orders in turn, and records none of the warm-up', async () => {
    const result = await pairedRounds([direct, baseline, baseline], config(2), { count: 10 });
    expect(result.rounds).toBe(10);
    expect(result.direct.n).toBe(10);
    expect(result.baseline.n).toBe(10);
    expect(result.current.n).toBe(10);
    // The two builds are one server here: who went where is read from the rotation itself.
    const names = ['direct', 'baseline', 'baseline'];
    const expected = Array.from({ length: 12 }, (_, i) => ORDERS[i % ORDERS.length].map((s) => names[s])).flat();
    expect(arrivals).toEqual(expected);
    // Each side is first, second and last equally often over the six orders.
    for (const position of [0, 1, 2]) expect(ORDERS.map((o) => o[position]).sort()).toEqual([0, 0, 1, 1, 2, 2]);
  });

  it("finds what one build adds in each round's difference, and nothing between two equal sides", async () => {
    const result = await pairedRounds([direct, baseline, slower], config(1), { count: 12 });
    expect(result.difference.n).toBe(12);
    // Twelve rounds give the sign test's interval; all of it lies far above zero. Not near the delay
    // itself: a round is one request per side, and on a loaded host one baseline request stalled by
    // several ms narrows that round's difference (33.3 ms for the 40 ms delay, jest on 3 workers).
    expect(result.difference.low).toBeGreaterThan(DELAY_MS * 1000 * 0.5);
    expect(result.current.overhead.p50).toBeGreaterThan(DELAY_MS * 1000 * 0.9);
    expect(result.baseline.overhead.p50).toBeLessThan(DELAY_MS * 1000 * 0.5);
  });

  it('times a stream to its first event: a build that only ends its streams later adds nothing there', async () => {
    const result = await pairedRounds([direct, baseline, slower], config(1), { count: 6, stream: true });
    expect(result.rounds).toBe(6);
    expect(result.difference.median).toBeLessThan(DELAY_MS * 1000 * 0.5);
    expect(result.current.p50).toBeLessThan(DELAY_MS * 1000 * 0.5);
  });

  it('stops at the first answer that is not a 200, naming its side', async () => {
    const failing = await side('failing', { status: (n) => (n === 3 ? 503 : 200) });
    await expect(pairedRounds([direct, baseline, failing], config(0), { count: 10 })).rejects.toThrow('failing: HTTP 503');
  });
});

describe('compareTable', () => {
  const result = {
    deployment: 'distributed',
    environment: { cpus: 2, cpuModel: 'Test CPU', loadavgAtStart: [0.5, 0.4, 0.3] },
    loadavgAtEnd: [1.5, 1, 0.5],
    baseline: { ref: 'main', commit: '0123456789abcdef0123' },
    current: { commit: 'fedcba9', dirty: true },
    cases: {
      json: {
        rounds: 300,
        direct: { p50: 312.4 },
        baseline: { overhead: { p50: 1100 } },
        current: { overhead: { p50: 1050 } },
        difference: { n: 300, median: -49.5, low: -80, high: 5 },
        hostCpu: { steal: 0, busy: 51.2 },
      },
      stream: {
        rounds: 4,
        direct: { p50: 820 },
        baseline: { overhead: { p50: 2000 } },
        current: { overhead: { p50: 2001 } },
        difference: { n: 4, median: 1, low: null, high: null },
      },
    },
  };

  it('prints each case in ms, signed, with its interval, and says when there are too few rounds for one', () => {
    const text = compareTable(result);
    expect(text).toContain('this build (fedcba9, uncommitted changes) against 0123456789ab, both running at once');
    expect(text).toContain('| json | 300 | 0.312 | +1.100 | +1.050 | −0.050 | −0.080 … +0.005 | 0 % / 51.2 % |');
    expect(text).toContain('| stream | 4 | 0.820 | +2.000 | +2.001 | +0.001 | none (fewer than six rounds) | — |');
  });
});
