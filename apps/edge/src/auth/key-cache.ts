/**
 * key hash → principal, cached per edge replica so authentication costs no round trip on the hot
 * path. Revoking a key or changing its settings (admin PATCH /admin/v1/keys/{id}) drops the entry at
 * once (the key-stale event, topic key.revoked); the TTL bounds the staleness of everything else (the
 * account's tier) while billing answers. Past its TTL a known key's entry is kept a while longer
 * (STALE_IF_ERROR_MS) for the one case where it is still the best answer there is: billing cannot be
 * asked (auth/authenticator.ts).
 */
import { ExpiringMap, type KeyPrincipal } from '@unigate/contracts';

/** How long an unknown key is remembered as unknown: a key created a moment ago must work almost at once. */
const UNKNOWN_KEY_MS = 1_000;

/** How long past its TTL a known key may still be answered from here while billing cannot answer. */
export const STALE_IF_ERROR_MS = 10 * 60_000;

export const DEFAULT_KEY_CACHE_TTL_MS = 30_000;

export interface CachedKey {
  /** null: billing said there is no such key. */
  principal: KeyPrincipal | null;
  /** Milliseconds since billing said so. */
  age: number;
}

export class KeyCache {
  private readonly known: ExpiringMap<string, { principal: KeyPrincipal; at: number }>;
  /**
   * Unknown keys have their own bound: a client sending random keys drops only other unknown keys,
   * never a known key's entry, which is what serves that key while billing cannot answer.
   */
  private readonly unknown: ExpiringMap<string, { principal: null; at: number }>;

  constructor(
    readonly ttlMs = DEFAULT_KEY_CACHE_TTL_MS,
    maxEntries = 50_000,
    maxUnknown = 10_000,
  ) {
    this.known = new ExpiringMap(maxEntries);
    this.unknown = new ExpiringMap(maxUnknown);
  }

  /** What billing last said about `hash`, and how long ago; a known key past its TTL only within STALE_IF_ERROR_MS. */
  get(hash: string, now = Date.now()): CachedKey | undefined {
    const entry = this.known.get(hash, now) ?? this.unknown.get(hash, now);
    return entry && { principal: entry.principal, age: now - entry.at };
  }

  /** Unknown keys are cached too, but only for a short while. */
  set(hash: string, principal: KeyPrincipal | null, now = Date.now()): void {
    if (principal) {
      this.unknown.delete(hash);
      this.known.set(hash, { principal, at: now }, this.ttlMs + STALE_IF_ERROR_MS, now);
    } else {
      this.known.delete(hash);
      this.unknown.set(hash, { principal, at: now }, Math.min(this.ttlMs, UNKNOWN_KEY_MS), now);
    }
  }

  delete(hash: string): void {
    this.known.delete(hash);
    this.unknown.delete(hash);
  }

  clear(): void {
    this.known.clear();
    this.unknown.clear();
  }
}
