/** Readiness checks registered by whatever a process depends on (database, Kafka, downstream services). */
export type ReadinessCheck = () => Promise<void>;

export class Readiness {
  private readonly checks = new Map<string, ReadinessCheck>();
  private draining = false;

  /** Shutdown has begun: not ready from now on, so load balancers stop sending before we stop answering. */
  drain(): void {
    this.draining = true;
  }

  add(name: string, check: ReadinessCheck): void {
    this.checks.set(name, check);
  }

  async report(): Promise<{ ok: boolean; checks: Record<string, string> }> {
    if (this.draining) return { ok: false, checks: { shutdown: 'draining' } };
    const entries = await Promise.all(
      [...this.checks].map(async ([name, check]) => {
        try {
          await withTimeout(check(), 2000);
          return [name, 'ok'] as const;
        } catch (e) {
          return [name, e instanceof Error ? e.message : String(e)] as const;
        }
      }),
    );
    return { ok: entries.every(([, v]) => v === 'ok'), checks: Object.fromEntries(entries) };
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    p.then(
      (v) => (clearTimeout(t), resolve(v)),
      (e) => (clearTimeout(t), reject(e)),
    );
  });
}
