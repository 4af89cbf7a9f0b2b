/**
 * Redelivery pacing shared by every EventBus: a handler that throws is retried after an exponential,
 * jittered delay so a broken dependency (database down) is not hammered and nothing is dropped.
 */
export interface BackoffOptions {
  /** First retry delay (ms). */
  initialMs?: number;
  /** Ceiling of any single delay (ms). */
  maxMs?: number;
}

export function backoffMs(attempt: number, opts: BackoffOptions = {}): number {
  const initial = opts.initialMs ?? 100;
  const max = opts.maxMs ?? 30_000;
  const base = Math.min(max, initial * 2 ** Math.max(0, attempt - 1));
  // ±20 % jitter so many consumers failing together do not retry in lockstep.
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/** Resolves after `ms`, or early (without throwing) when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
