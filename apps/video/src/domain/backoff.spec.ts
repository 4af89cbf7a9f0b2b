import { nextPollDelay } from './backoff';

describe('nextPollDelay', () => {
  const timing = { baseMs: 1000, maxMs: 30_000 };
  it('doubles per poll within jitter, capped', () => {
    expect(nextPollDelay(0, timing, false, () => 1)).toBe(1000);
    expect(nextPollDelay(3, timing, false, () => 1)).toBe(8000);
    expect(nextPollDelay(3, timing, false, () => 0)).toBe(4000);
    expect(nextPollDelay(30, timing, false, () => 1)).toBe(30_000);
  });
  it('waits the longest step after a 429', () => {
    expect(nextPollDelay(0, timing, true, () => 0)).toBe(30_000);
  });
});
