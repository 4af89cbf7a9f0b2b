/**
 * The keys whose admission was refused (429, 402) a moment ago. A call that goes out while its
 * admission is in flight costs the hop and the service's decoding, and its session, when it is
 * refused; under a flood of refusals (a client retrying a spent key in a loop) that would multiply
 * the work of every refusal. So a key refused in the last second is admitted first again, and its
 * refusals cost one Redis call each, as before the overlap.
 */
import { dropOldest } from '@unigate/contracts';

export class RecentRefusals {
  private readonly until = new Map<string, number>();

  constructor(
    private readonly forMs = 1_000,
    private readonly maxKeys = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** `keyId` was refused just now. */
  note(keyId: string): void {
    this.until.delete(keyId);
    this.until.set(keyId, this.now() + this.forMs);
    dropOldest(this.until, this.maxKeys);
  }

  /** Whether `keyId` was refused within the last `forMs`. */
  has(keyId: string): boolean {
    const until = this.until.get(keyId);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.until.delete(keyId);
    return false;
  }
}
