/**
 * key hash → principal, cached briefly per edge replica so authentication costs no round trip on
 * the hot path. Revocation drops the entry at once (key.revoked event); the TTL bounds staleness of
 * everything else (limits, model lists).
 */
import { ExpiringMap, type KeyPrincipal } from '@unigate/contracts';

/** How long an unknown key is remembered as unknown: a key created a moment ago must work almost at once. */
const UNKNOWN_KEY_MS = 1_000;

export class KeyCache {
  // Unknown keys fill it too: the bound keeps a client sending random keys from growing it.
  private readonly entries: ExpiringMap<string, KeyPrincipal | null>;

  constructor(
    private readonly ttlMs = 30_000,
    maxEntries = 50_000,
  ) {
    this.entries = new ExpiringMap(maxEntries);
  }

  get(hash: string, now = Date.now()): KeyPrincipal | null | undefined {
    return this.entries.get(hash, now);
  }

  /** Unknown keys are cached too, but only for a short while. */
  set(hash: string, principal: KeyPrincipal | null, now = Date.now()): void {
    this.entries.set(hash, principal, principal ? this.ttlMs : Math.min(this.ttlMs, UNKNOWN_KEY_MS), now);
  }

  delete(hash: string): void {
    this.entries.delete(hash);
  }

  clear(): void {
    this.entries.clear();
  }
}
