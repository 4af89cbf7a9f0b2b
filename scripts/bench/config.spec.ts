/**
 * The bench's settings come from the environment: a typo must stop the run with a reason, not measure
 * the wrong thing for fifteen minutes.
 */
import { ALL_TARGETS, readConfig, UsageError } from './config.mjs';

const saved = { ...process.env };
afterEach(() => {
  for (const key of Object.keys(process.env)) if (key.startsWith('BENCH_')) delete process.env[key];
  Object.assign(process.env, saved);
});

describe('readConfig', () => {
  it('measures every target with the full counts by default', () => {
    for (const key of Object.keys(process.env)) if (key.startsWith('BENCH_')) delete process.env[key];
    const c = readConfig([]);
    expect(c.targets).toEqual(ALL_TARGETS);
    expect(c.sequential).toMatchObject({ json: 3000, stream: 300, large: 1000, idle: 300, maxSeconds: 30 });
    expect(c).toMatchObject({ quick: false, connections: 64, durationSeconds: 10, model: 'omega-k3', writeDocs: false });
    expect(c.decay).toEqual({ seconds: 60, windows: 6 });
    expect(c.headToHead).toEqual({ rounds: 10, warmupRounds: 2, sliceSeconds: 3, windows: 3 });
  });

  it('takes targets, counts and --docs from its caller, quick runs shorter', () => {
    process.env.BENCH_QUICK = '1';
    process.env.BENCH_TARGETS = ' direct, standalone ,';
    process.env.BENCH_SEQUENTIAL = '500';
    const c = readConfig(['--docs']);
    expect(c.targets).toEqual(['direct', 'standalone']);
    expect(c.sequential).toMatchObject({ json: 500, stream: 30, maxSeconds: 4 });
    expect(c).toMatchObject({ quick: true, durationSeconds: 3, writeDocs: true });
    expect(c.headToHead).toEqual({ rounds: 6, warmupRounds: 1, sliceSeconds: 2, windows: 2 });
  });

  it('runs as many head-to-head rounds as it is told, none for 0', () => {
    process.env.BENCH_HEAD_TO_HEAD_ROUNDS = '0';
    expect(readConfig([]).headToHead.rounds).toBe(0);
    process.env.BENCH_HEAD_TO_HEAD_ROUNDS = '12';
    expect(readConfig([]).headToHead.rounds).toBe(12);
  });

  it('refuses an unknown target and a count that is not a non-negative number', () => {
    process.env.BENCH_TARGETS = 'direct,litellm';
    expect(() => readConfig([])).toThrow('BENCH_TARGETS: unknown target(s) litellm');
    expect(() => readConfig([])).toThrow(UsageError);
    delete process.env.BENCH_TARGETS;
    for (const bad of ['-1', 'ten', 'Infinity']) {
      process.env.BENCH_DURATION = bad;
      expect(() => readConfig([])).toThrow(`BENCH_DURATION must be a non-negative number, got '${bad}'`);
    }
  });
});
