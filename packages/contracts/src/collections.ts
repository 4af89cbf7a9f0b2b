/**
 * Keeps an insertion-ordered Map or Set at `max` entries or fewer by deleting its oldest ones, an
 * eighth of `max` at a time once it is over. Why not one at a time: V8 leaves a deleted entry as a
 * hole until the table is rehashed, and iterating from the start steps over every hole, so finding
 * the first entry after each insert costs time in proportion to the deletions so far. With `max`
 * 100,000 that was 0.2 µs per insert at first and 66 µs after 300,000 (a bare loop), and standalone
 * served 20 % less by the end of the bench's 60 s run. In batches the walk is paid once per batch.
 */
export function dropOldest<K>(entries: Map<K, unknown> | Set<K>, max: number): void {
  if (entries.size <= max) return;
  let drop = entries.size - max + Math.floor(max / 8);
  for (const key of entries.keys()) {
    if (drop-- <= 0) break;
    entries.delete(key);
  }
}

/**
 * A bounded map whose entries expire: what a per-replica cache of short-lived facts needs (a key's
 * principal, a key refused a moment ago). An entry read after its time is gone; setting a key again
 * makes it the newest, so the bound drops the entries written longest ago (dropOldest).
 */
export class ExpiringMap<K, V> {
  private readonly entries = new Map<K, { value: V; expires: number }>();

  constructor(private readonly maxEntries: number) {}

  get(key: K, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires > now) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /** `value` under `key` for `ttlMs` from `now`. */
  set(key: K, value: V, ttlMs: number, now = Date.now()): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expires: now + ttlMs });
    dropOldest(this.entries, this.maxEntries);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  /** Entries held, expired ones not yet read included. */
  get size(): number {
    return this.entries.size;
  }
}

/** `value` and everything it holds made read-only (a value shared between callers that none may change). */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
