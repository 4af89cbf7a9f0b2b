/**
 * The keys whose admission was refused (429, 402) a moment ago. A call that goes out while its
 * admission is in flight costs the hop and the service's decoding, and its session, when it is
 * refused; under a flood of refusals (a client retrying a spent key in a loop) that would multiply
 * the work of every refusal. So a key refused in the last second is admitted first again, and its
 * refusals cost one Redis call each, as before the overlap.
 */
import { ExpiringMap } from '@unigate/contracts';

export class RecentRefusals {
  private readonly refused: ExpiringMap<string, true>;

  constructor(
    private readonly forMs = 1_000,
    maxKeys = 10_000,
    private readonly now: () => number = Date.now,
  ) {
    this.refused = new ExpiringMap(maxKeys);
  }

  /** `keyId` was refused just now. */
  note(keyId: string): void {
    this.refused.set(keyId, true, this.forMs, this.now());
  }

  /** Whether `keyId` was refused within the last `forMs`. */
  has(keyId: string): boolean {
    return this.refused.get(keyId, this.now()) === true;
  }
}
