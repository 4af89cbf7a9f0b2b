/**
 * One shutdown sequence per process, on SIGTERM, SIGINT or SIGHUP: run `steps` once, then exit. A process
 * that has not finished within the deadline plus a margin exits anyway (exit code 1), so a stuck
 * step never outlives Kubernetes' grace period silently.
 */
import type { Logger } from '../logger';

/**
 * The signals that stop a process gracefully: SIGTERM (Kubernetes, docker stop), SIGINT (Ctrl-C) and
 * SIGHUP (its terminal closed), in every process. Not SIGUSR2, which Node's --heapsnapshot-signal and
 * --report-on-signal are usually given, and never the fault signals (SIGSEGV, SIGBUS, SIGILL, SIGFPE):
 * Node's docs warn that a JS listener for a real fault can leave the process hanging instead of dying.
 */
export const SHUTDOWN_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const satisfies readonly NodeJS.Signals[];

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
  for (const signal of SHUTDOWN_SIGNALS) process.once(signal, run);
}
