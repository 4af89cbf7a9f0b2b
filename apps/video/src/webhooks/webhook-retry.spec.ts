import { DEFAULT_WEBHOOK_RETRY, webhookRetryDelay } from './webhook-retry';

describe('webhook retry schedule', () => {
  it('doubles, caps, and keeps trying for more than 24 hours by default', () => {
    expect(webhookRetryDelay(1, DEFAULT_WEBHOOK_RETRY)).toBe(30_000);
    expect(webhookRetryDelay(2, DEFAULT_WEBHOOK_RETRY)).toBe(60_000);
    expect(webhookRetryDelay(15, DEFAULT_WEBHOOK_RETRY)).toBe(2 * 60 * 60_000);
    let total = 0;
    for (let a = 1; a < DEFAULT_WEBHOOK_RETRY.attempts; a++) total += webhookRetryDelay(a, DEFAULT_WEBHOOK_RETRY);
    expect(total).toBeGreaterThan(24 * 60 * 60_000);
  });
});
