import { RunningHolds, type HoldExtension, type RunningHold } from './running-holds';

describe('RunningHolds', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const hold = (holdId: string): RunningHold => ({ accountId: 'a', holdId, ttlMs: 1_000 });

  it('hands every sweep the holds still running, and none once their call is over', async () => {
    const swept: string[][] = [];
    const running = new RunningHolds(async (holds) => void swept.push(holds.map((h) => h.holdId)), 100);
    const endFirst = running.add(hold('first'));
    running.add(hold('second'));
    await jest.advanceTimersByTimeAsync(100);
    endFirst();
    endFirst(); // twice is fine
    await jest.advanceTimersByTimeAsync(100);
    running.close();
    await jest.advanceTimersByTimeAsync(300);
    expect(swept).toEqual([['first', 'second'], ['second']]);
  });

  it('does not call the store when nothing runs, and tries again at the next sweep when it fails', async () => {
    const warnings: unknown[] = [];
    const logger = { warn: (o: unknown) => warnings.push(o) } as never;
    let calls = 0;
    const running = new RunningHolds(
      async () => {
        if (++calls === 1) throw new Error('redis away');
      },
      100,
      logger,
    );
    await jest.advanceTimersByTimeAsync(200);
    expect(calls).toBe(0);
    running.add(hold('h'));
    await jest.advanceTimersByTimeAsync(200);
    running.close();
    expect(calls).toBe(2);
    expect(warnings).toEqual([expect.objectContaining({ holds: 1, err: 'Error: redis away' })]);
  });

  it('a hold added again under its id (the same request admitted twice) stays until its latest call ends', async () => {
    const swept: string[][] = [];
    const running = new RunningHolds(async (holds) => void swept.push(holds.map((h) => h.holdId)), 100);
    const endEarlier = running.add(hold('same'));
    running.add(hold('same'));
    endEarlier();
    await jest.advanceTimersByTimeAsync(100);
    running.close();
    expect(swept).toEqual([['same']]);
  });

  it('gives a hold whose call ended its ended TTL at the next sweep, once, and again after a sweep that failed', async () => {
    const swept: string[][] = [];
    let fail = false;
    const running = new RunningHolds(async (holds: HoldExtension[]) => {
      if (fail) throw new Error('redis away');
      swept.push(holds.map((h) => `${h.holdId}:${h.ttlMs}`));
    }, 100);
    const endSettling = running.add({ ...hold('settling'), endedTtlMs: 600_000 });
    const endVideo = running.add({ ...hold('video'), endedTtlMs: 1_000 }); // no longer than while running: nothing to do
    running.add(hold('still'));
    endSettling();
    endVideo();
    fail = true;
    await jest.advanceTimersByTimeAsync(100);
    fail = false;
    await jest.advanceTimersByTimeAsync(200);
    running.close();
    expect(swept).toEqual([['still:1000', 'settling:600000'], ['still:1000']]);
  });

  it('on close, gives the holds of calls that ended since the last sweep their ended TTL, and sweeps no more', async () => {
    const swept: string[][] = [];
    const running = new RunningHolds(async (holds: HoldExtension[]) => void swept.push(holds.map((h) => `${h.holdId}:${h.ttlMs}`)), 100);
    running.add(hold('cut off'));
    running.add({ ...hold('settling'), endedTtlMs: 600_000 })();
    await running.close();
    await jest.advanceTimersByTimeAsync(300);
    expect(swept).toEqual([['settling:600000']]);
  });
});
