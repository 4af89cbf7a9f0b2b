/**
 * Stored responses expire: `UNIGATE_RESPONSES_RETENTION_DAYS` after they were created (30 by default,
 * as OpenAI keeps them; 0 keeps them for ever), except while a response created since continues them.
 * Every chat process sweeps on its own timer — a few minutes after it starts, then hourly. Replicas
 * sweeping at once only delete what the other has not.
 */
import { readEnv, wholeNumber, type Logger } from '@unigate/platform';
import { z } from 'zod';
import type { ResponsesStore } from './domain/responses-store';

export const DEFAULT_RESPONSES_RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;
const SWEEP_INTERVAL_MS = 3_600_000;
// Not at once: a starting replica has readiness to reach first, and a fleet restarted together would all sweep together.
const FIRST_SWEEP_MS = 5 * 60_000;

const retentionEnv = z.object({
  UNIGATE_RESPONSES_RETENTION_DAYS: wholeNumber(
    0,
    36_500,
    'UNIGATE_RESPONSES_RETENTION_DAYS must be a whole number of days from 0 (never expire) to 36500',
  ),
});

export function responsesRetentionDays(env: NodeJS.ProcessEnv = process.env): number {
  return readEnv(retentionEnv, env).UNIGATE_RESPONSES_RETENTION_DAYS ?? DEFAULT_RESPONSES_RETENTION_DAYS;
}

export interface ResponsesExpiryOptions {
  retentionDays: number;
  logger: Logger;
  intervalMs?: number;
  firstSweepMs?: number;
  now?: () => number;
}

/** Starts the sweeps (none with 0 days); the answer stops them and waits for one that is running. */
export function startResponsesExpiry(store: Pick<ResponsesStore, 'expire'>, opts: ResponsesExpiryOptions): () => Promise<void> {
  if (opts.retentionDays === 0) return async () => undefined;
  const now = opts.now ?? Date.now;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const sweep = () => {
    running = running.then(async () => {
      if (stopped) return;
      try {
        const expired = await store.expire(new Date(now() - opts.retentionDays * DAY_MS));
        if (expired > 0) opts.logger.info({ expired, retention_days: opts.retentionDays }, 'expired stored responses');
      } catch (err) {
        opts.logger.warn({ err }, 'expiring stored responses failed; the next sweep tries again');
      }
    });
  };
  const first = setTimeout(sweep, opts.firstSweepMs ?? FIRST_SWEEP_MS);
  const every = setInterval(sweep, opts.intervalMs ?? SWEEP_INTERVAL_MS);
  first.unref();
  every.unref();
  return async () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(every);
    await running;
  };
}
