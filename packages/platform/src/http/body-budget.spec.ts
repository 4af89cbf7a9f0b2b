import {
  BodyBudget,
  bodyMemoryBytesFromEnv,
  defaultBodyMemoryBytes,
  REFUSAL_TOLD_EVERY_MS,
  SMALL_BODY_BYTES,
  type BodyRefusal,
  type BodyTicket,
} from './body-budget';

const MiB = 1024 * 1024;
const ticket = (key: string): BodyTicket => ({ key, bytes: 0 });

describe('BodyBudget', () => {
  it('admits a body while the process and its key stay within their limits, and counts it until released', () => {
    const budget = new BodyBudget(10 * MiB);
    const a = ticket('k1');
    const b = ticket('k2');
    expect(budget.charge(a, 4 * MiB)).toBeUndefined();
    expect(budget.charge(b, 5 * MiB)).toBeUndefined();
    expect([budget.heldBytes(), budget.heldBytes('k1'), budget.heldBytes('k2')]).toEqual([9 * MiB, 4 * MiB, 5 * MiB]);
    budget.release(a);
    budget.release(a);
    expect([budget.heldBytes(), budget.heldBytes('k1'), a.bytes]).toEqual([5 * MiB, 0, 0]);
  });

  it('refuses a key past half the limit with a 429, and the process past the limit with a 503; nothing is counted', () => {
    const budget = new BodyBudget(10 * MiB);
    expect(budget.charge(ticket('k1'), 4 * MiB)).toBeUndefined();
    expect(budget.charge(ticket('k1'), 2 * MiB)).toMatchObject({ status: 429, code: 'Throttling.RateQuota', retryAfter: 1 });
    expect(budget.charge(ticket('k2'), 5 * MiB)).toBeUndefined();
    expect(budget.charge(ticket('k3'), 2 * MiB)).toMatchObject({ status: 503, code: 'service_unavailable', retryAfter: 1 });
    expect(budget.heldBytes()).toBe(9 * MiB);
    expect(budget.heldBytes('k3')).toBe(0);
  });

  it('never refuses the only body held, nor a small one, nor any with no limit', () => {
    const budget = new BodyBudget(1 * MiB);
    const only = ticket('k1');
    expect(budget.charge(only, 20 * MiB)).toBeUndefined();
    expect(budget.charge(only, 5 * MiB)).toBeUndefined();
    expect(budget.charge(ticket('k1'), SMALL_BODY_BYTES)).toBeUndefined();
    expect(budget.charge(ticket('k2'), SMALL_BODY_BYTES + 1)).toMatchObject({ status: 503 });
    const unlimited = new BodyBudget(0);
    expect(unlimited.charge(ticket('k1'), 20 * MiB)).toBeUndefined();
    expect(unlimited.charge(ticket('k1'), 20 * MiB)).toBeUndefined();
  });

  it('counts a body that arrives in parts against its own earlier parts: a small body that grows is refused once large', () => {
    const budget = new BodyBudget(1 * MiB);
    expect(budget.charge(ticket('k2'), 600 * 1024)).toBeUndefined();
    const growing = ticket('k1');
    expect(budget.charge(growing, 60 * 1024)).toBeUndefined();
    expect(budget.charge(growing, 60 * 1024)).toBeUndefined();
    expect(budget.charge(growing, 400 * 1024)).toMatchObject({ status: 503 });
    expect(growing.bytes).toBe(120 * 1024);
  });

  it('a request without a key counts for the process only', () => {
    const budget = new BodyBudget(10 * MiB);
    expect(budget.charge(ticket(''), 5 * MiB)).toBeUndefined();
    expect(budget.charge(ticket(''), 5 * MiB)).toBeUndefined();
    expect(budget.charge(ticket(''), 1 * MiB)).toMatchObject({ status: 503 });
  });

  it('tells of refusals at most once per window for each scope', () => {
    const told: BodyRefusal[] = [];
    const budget = new BodyBudget(2 * MiB, (scope) => told.push(scope));
    budget.charge(ticket('k1'), 1 * MiB);
    for (let i = 0; i < 3; i++) budget.charge(ticket('k1'), 1 * MiB);
    budget.charge(ticket('k2'), 1 * MiB);
    for (let i = 0; i < 3; i++) budget.charge(ticket('k3'), 1 * MiB);
    expect(told).toEqual(['key', 'process']);
    jest.spyOn(performance, 'now').mockReturnValue(performance.now() + REFUSAL_TOLD_EVERY_MS);
    budget.charge(ticket('k3'), 1 * MiB);
    jest.restoreAllMocks();
    expect(told).toEqual(['key', 'process', 'process']);
  });
});

describe('bodyMemoryBytesFromEnv', () => {
  it('reads MiB, 0 for no limit, and defaults to a quarter of the heap limit', () => {
    expect(bodyMemoryBytesFromEnv({ UNIGATE_BODY_MEMORY_MB: '64' })).toBe(64 * MiB);
    expect(bodyMemoryBytesFromEnv({ UNIGATE_BODY_MEMORY_MB: '0' })).toBe(0);
    expect(bodyMemoryBytesFromEnv({})).toBe(defaultBodyMemoryBytes());
    // A blank value (a chart or compose file's empty default) is unset, not 0 (no limit).
    expect(bodyMemoryBytesFromEnv({ UNIGATE_BODY_MEMORY_MB: '' })).toBe(defaultBodyMemoryBytes());
    expect(bodyMemoryBytesFromEnv({ UNIGATE_BODY_MEMORY_MB: ' ' })).toBe(defaultBodyMemoryBytes());
    expect(defaultBodyMemoryBytes()).toBeGreaterThan(16 * MiB);
  });

  it('refuses anything else at start, naming the variable', () => {
    for (const value of ['-1', '1.5', 'lots'])
      expect(() => bodyMemoryBytesFromEnv({ UNIGATE_BODY_MEMORY_MB: value })).toThrow(/UNIGATE_BODY_MEMORY_MB/);
  });
});
