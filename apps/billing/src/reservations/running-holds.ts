/**
 * The holds of calls still running in this process, kept alive. A hold expires its TTL (10 minutes by
 * default) after it was placed unless it is settled, so that the money of a process that died comes
 * back. A call may run longer than that (a long stream; a whole answer may take 10 minutes to begin),
 * and its hold must not expire under it: the account could then spend the same money again. So every
 * `everyMs` (a third of the default TTL) the holds of the calls running here are pushed out by their
 * TTL, in one sweep for all of them rather than a timer per call. A process that dies stops pushing,
 * and its holds expire as before.
 */
import type { Logger } from '@unigate/platform';

export interface RunningHold {
  accountId: string;
  holdId: string;
  ttlMs: number;
}

export class RunningHolds {
  private readonly running = new Map<string, RunningHold>();
  private readonly timer: NodeJS.Timeout;

  /** `extend` pushes each live hold's expiry out to now + its TTL (a hold already gone stays gone). */
  constructor(
    private readonly extend: (holds: RunningHold[]) => Promise<void>,
    everyMs: number,
    private readonly logger?: Logger,
  ) {
    this.timer = setInterval(() => void this.sweep(), everyMs);
    this.timer.unref();
  }

  /** Keeps `hold` alive until the returned function is called (its call is over). */
  add(hold: RunningHold): () => void {
    this.running.set(hold.holdId, hold);
    return () => {
      if (this.running.get(hold.holdId) === hold) this.running.delete(hold.holdId);
    };
  }

  close(): void {
    clearInterval(this.timer);
  }

  private async sweep(): Promise<void> {
    if (this.running.size === 0) return;
    await this.extend([...this.running.values()]).catch((err: unknown) =>
      // Tried again next sweep; a hold that expires meanwhile returns its money as a dead owner's would.
      this.logger?.warn({ holds: this.running.size, err: String(err) }, 'running holds could not be kept alive'),
    );
  }
}
