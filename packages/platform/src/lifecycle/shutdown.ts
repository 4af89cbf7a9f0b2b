/**
 * One shutdown sequence per process, on SIGTERM or SIGINT: run `steps` once, then exit. A process
 * that has not finished within the deadline plus a margin exits anyway (exit code 1), so a stuck
 * step never outlives Kubernetes' grace period silently.
 */
import type { Logger } from '../logger';

/** How long in-flight answers may take to finish after SIGTERM (UNIGATE_SHUTDOWN_TIMEOUT_MS, default 25 s). */
export function shutdownTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const v = Number(env.UNIGATE_SHUTDOWN_TIMEOUT_MS ?? 25_000);
  return Number.isFinite(v) && v >= 0 ? v : 25_000;
}

export function onShutdownSignal(logger: Logger, steps: (deadlineMs: number) => Promise<void>): void {
  let started = false;
  const run = async (signal: NodeJS.Signals) => {
    if (started) return;
    started = true;
    const deadlineMs = shutdownTimeoutMs();
    logger.info({ signal, deadline_ms: deadlineMs }, 'shutting down');
    setTimeout(() => {
      logger.error({ deadline_ms: deadlineMs }, 'shutdown did not finish in time; exiting');
      process.exit(1);
    }, deadlineMs + 5_000).unref();
    try {
      await steps(deadlineMs);
      logger.info('shut down');
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', run);
  process.once('SIGINT', run);
}
