/**
 * key hash → principal, cached briefly per edge replica so authentication costs no round trip on
 * the hot path. Revocation drops the entry at once (key.revoked event); the TTL bounds staleness of
 * everything else (limits, model lists).
 */
import { dropOldest, type KeyPrincipal } from '@unigate/contracts';

interface Entry {
  principal: KeyPrincipal | null;
  expires: number;
}

export class KeyCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 50_000,
  ) {}

  get(hash: string, now = Date.now()): KeyPrincipal | null | undefined {
    const e = this.entries.get(hash);
    if (!e) return undefined;
    if (e.expires <= now) {
      this.entries.delete(hash);
      return undefined;
    }
    return e.principal;
  }

  /** Unknown keys are cached too, but only for a short while, so a new key works almost at once. */
  set(hash: string, principal: KeyPrincipal | null, now = Date.now()): void {
    this.entries.set(hash, { principal, expires: now + (principal ? this.ttlMs : Math.min(this.ttlMs, 1_000)) });
    // Unknown keys fill it too: a client sending random keys must not make each insert slower.
    dropOldest(this.entries, this.maxEntries);
  }

  delete(hash: string): void {
    this.entries.delete(hash);
  }

  clear(): void {
    this.entries.clear();
  }
}
