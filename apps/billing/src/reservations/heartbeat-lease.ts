/**
 * A concurrency slot that stays alive while its holder does: the store gives every slot a TTL (so a
 * crashed replica's slots come back by themselves), and the holder refreshes it every third of that
 * TTL until it releases. A request that outlives the TTL therefore keeps its slot; one whose process
 * died loses it at most one TTL later.
 */
import type { Logger } from '@unigate/platform';
/** A concurrency slot held by one admitted request. */
export interface Lease {
  /** Gives the slot back. Idempotent, never rejects: a slot that cannot be returned expires by itself. */
  release(): Promise<void>;
}

export interface LeaseStore {
  /** Push the slot's expiry out by one TTL; false when the slot is already gone. */
  refresh(): Promise<boolean>;
  remove(): Promise<void>;
}

export class HeartbeatLease implements Lease {
  private released?: Promise<void>;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly store: LeaseStore,
    ttlMs: number,
    private readonly onEnd: (lease: HeartbeatLease) => void,
    private readonly logger?: Logger,
    private readonly describe: Record<string, string> = {},
  ) {
    this.timer = setInterval(() => void this.beat(), Math.max(1, Math.floor(ttlMs / 3)));
    this.timer.unref();
  }

  release(): Promise<void> {
    this.released ??= (async () => {
      this.stop();
      await this.store.remove().catch((err: unknown) =>
        // The slot expires with its TTL; until then the key has one slot fewer.
        this.logger?.warn({ ...this.describe, err: String(err) }, 'concurrency slot release failed; it will expire'),
      );
    })();
    return this.released;
  }

  /** Stop refreshing without removing the slot (process shutdown): it expires with its TTL. */
  stop(): void {
    clearInterval(this.timer);
    this.onEnd(this);
  }

  private async beat(): Promise<void> {
    if (this.released) return;
    try {
      if (!(await this.store.refresh())) {
        clearInterval(this.timer);
        this.logger?.warn(this.describe, 'concurrency slot expired while its request was still running');
      }
    } catch (err) {
      // Transient: the next beat tries again well before the TTL runs out.
      this.logger?.warn({ ...this.describe, err: String(err) }, 'concurrency slot refresh failed');
    }
  }
}
