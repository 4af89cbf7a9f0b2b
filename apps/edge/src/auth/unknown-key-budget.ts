/**
 * Keys billing does not know, counted per client address. A key the replica has not cached costs a
 * lookup in billing (a statement on the ledger's database), where a cached one costs nothing: a
 * client sending made-up keys made billing look up every one of them (standalone answered ~1,100
 * such requests a second, against ~5,000 refusals of a malformed body, and the lookups shared the
 * embedded database with the ledger's commits). Past `limit` unknown keys from one address within
 * `windowMs`, a key this replica has not cached is refused 429 until the window ends, without asking
 * billing; keys it has cached keep working. An IPv6 address counts by its /64, one host's usual share.
 */
import { ExpiringMap } from '@unigate/contracts';

export const DEFAULT_UNKNOWN_KEY_LIMIT = 100;
export const UNKNOWN_KEY_WINDOW_MS = 10_000;

export class UnknownKeyBudget {
  /** Address → unknown keys counted in its window, and when that window ends. */
  private readonly spent: ExpiringMap<string, { count: number; ends: number }>;

  constructor(
    readonly limit = DEFAULT_UNKNOWN_KEY_LIMIT,
    readonly windowMs = UNKNOWN_KEY_WINDOW_MS,
    maxAddresses = 10_000,
  ) {
    this.spent = new ExpiringMap(maxAddresses);
  }

  /** Whole seconds until `address` may have a key looked up again; 0 when it may now (or no limit applies). */
  waitFor(address: string | undefined, now = Date.now()): number {
    if (this.limit <= 0 || !address) return 0;
    const entry = this.spent.get(addressKey(address), now);
    return entry && entry.count >= this.limit ? Math.max(1, Math.ceil((entry.ends - now) / 1000)) : 0;
  }

  /** Billing did not know a key `address` sent; true when this one used up the address's budget. */
  spend(address: string | undefined, now = Date.now()): boolean {
    if (this.limit <= 0 || !address) return false;
    const key = addressKey(address);
    const entry = this.spent.get(key, now);
    if (entry) {
      entry.count++;
      return entry.count === this.limit;
    }
    this.spent.set(key, { count: 1, ends: now + this.windowMs }, this.windowMs, now);
    return this.limit === 1;
  }
}

const MAPPED_IPV4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/** What an address is counted under: an IPv4 address as it is (also when mapped into IPv6), an IPv6 one by its /64. */
export function addressKey(address: string): string {
  const mapped = MAPPED_IPV4.exec(address);
  if (mapped) return mapped[1];
  if (!address.includes(':')) return address;
  const bare = address.split('%', 1)[0].toLowerCase();
  const [head, tail] = bare.split('::');
  const groups = head ? head.split(':') : [];
  if (tail !== undefined) {
    const rest = tail ? tail.split(':') : [];
    groups.push(...Array<string>(Math.max(0, 8 - groups.length - rest.length)).fill('0'), ...rest);
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
