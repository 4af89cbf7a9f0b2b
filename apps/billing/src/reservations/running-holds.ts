/**
 * The holds of calls still running in this process, kept alive. A running call's hold is placed for
 * one lease TTL (a minute by default) and pushed out by that much every third of it, in one sweep for
 * all of them rather than a timer per call: a call may run for many minutes (a long stream; a whole
 * answer may take 10 minutes to begin) and its hold must not expire under it, or the account could
 * spend the same money again. A process that dies stops pushing, and its holds come back one lease TTL
 * later at most. When a call ends its hold waits for billing to settle it: it is queued with its full
 * TTL (10 minutes by default) and the next sweep gives it that, so that a billing that lags does not
 * see the money spent twice.
 */
import type { Logger } from '@unigate/platform';

/** A hold to push out to now + `ttlMs` (a hold already settled, refunded or expired stays gone). */
export interface HoldExtension {
  accountId: string;
  holdId: string;
  ttlMs: number;
}

export interface RunningHold extends HoldExtension {
  /** What the hold gets once its call ended (awaiting settlement); nothing when it is no longer than `ttlMs`. */
  endedTtlMs?: number;
}

export class RunningHolds {
  private readonly running = new Map<string, RunningHold>();
  private ended: HoldExtension[] = [];
  private readonly timer: NodeJS.Timeout;

  /** `extend` pushes each live hold's expiry out to now + its TTL, never in. */
  constructor(
    private readonly extend: (holds: HoldExtension[]) => Promise<void>,
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
      if (this.running.get(hold.holdId) !== hold) return;
      this.running.delete(hold.holdId);
      if (hold.endedTtlMs !== undefined && hold.endedTtlMs > hold.ttlMs) {
        this.ended.push({ accountId: hold.accountId, holdId: hold.holdId, ttlMs: hold.endedTtlMs });
      }
    };
  }

  /**
   * Stops the sweeps, giving the holds of calls that ended since the last one their ended TTL first:
   * on a graceful shutdown their settlement may still be on its way.
   */
  async close(): Promise<void> {
    clearInterval(this.timer);
    const ended = this.ended;
    this.ended = [];
    if (ended.length > 0)
      await this.extend(ended).catch((err: unknown) =>
        this.logger?.warn({ holds: ended.length, err: String(err) }, 'ended holds could not be kept for settlement'),
      );
  }

  private async sweep(): Promise<void> {
    const ended = this.ended;
    if (this.running.size === 0 && ended.length === 0) return;
    this.ended = [];
    await this.extend([...this.running.values(), ...ended]).catch((err: unknown) => {
      // Tried again next sweep, two before the lease TTL runs out; a hold that expires meanwhile
      // returns its money as a dead owner's would.
      this.ended = ended.concat(this.ended);
      this.logger?.warn({ holds: this.running.size + ended.length, err: String(err) }, 'running holds could not be kept alive');
    });
  }
}
