/**
 * The webhook retry schedule: doubling from `baseMs`, each wait capped at `maxMs`, for `attempts`
 * attempts. The defaults keep trying for more than 24 hours (docs/video.md lists the schedule).
 */
export interface WebhookRetry {
  baseMs: number;
  maxMs: number;
  attempts: number;
}

export const DEFAULT_WEBHOOK_RETRY: WebhookRetry = { baseMs: 30_000, maxMs: 2 * 60 * 60_000, attempts: 20 };

/** The wait after failed attempt number `attempt` (1-based). */
export const webhookRetryDelay = (attempt: number, r: WebhookRetry) => Math.min(r.baseMs * 2 ** Math.min(attempt - 1, 30), r.maxMs);
