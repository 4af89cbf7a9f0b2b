/**
 * When to poll a task next: exponential from `baseMs` up to `maxMs`, with jitter (half to whole of the
 * step) so many tasks submitted together do not poll together; an upstream 429 waits at least `maxMs`.
 */
export interface PollTiming {
  baseMs: number;
  maxMs: number;
}

export function nextPollDelay(polls: number, timing: PollTiming, throttled = false, random = Math.random): number {
  const step = Math.min(timing.baseMs * 2 ** Math.min(polls, 20), timing.maxMs);
  const delay = Math.round(step * (0.5 + random() * 0.5));
  return throttled ? Math.max(delay, timing.maxMs) : delay;
}
