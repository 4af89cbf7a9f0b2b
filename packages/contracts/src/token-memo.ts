/**
 * Token counts of long texts an account sent before. A coding agent resends its whole conversation on
 * every turn (tens of kilobytes), and the edge estimates the prompt's tokens on every request to size
 * its hold: remembering each long message's count turns most of that scan (~0.3 ms for 60 KB) into a
 * map lookup (the hash of the freshly parsed string, about a third of it).
 *
 * - Per account: a count remembered for one account is never used for another, whose request pays the
 *   full count even when the text is known, so the time a request takes says nothing about what other
 *   accounts sent.
 * - Bounded by the characters it holds (the texts are the keys), least recently used dropped first.
 * - Only texts from TOKEN_MEMO_MIN_CHARS to TOKEN_MEMO_MAX_TEXT_CHARS: shorter ones count faster than
 *   they hash, and V8 hashes a string longer than 16,383 characters by its length alone, so texts of
 *   equal length past it would share one bucket and make every lookup a chain of long comparisons.
 *
 * A memo applies inside `withTokenMemo` only. The estimate is synchronous, so the scope is a plain
 * variable set around it: no async context to carry, and nothing else runs while it is set.
 */
export const TOKEN_MEMO_MIN_CHARS = 512;
export const TOKEN_MEMO_MAX_TEXT_CHARS = 16_383;
/** Characters all remembered texts may hold together (4 MiB of text when it is Latin-1). */
export const TOKEN_MEMO_MAX_CHARS = 4 * 1024 * 1024;
/** The accounts a text's count is kept for (the same system prompt sent by many accounts). */
const MAX_ACCOUNTS_PER_TEXT = 8;

interface Entry {
  tokens: number;
  accounts: string[];
}

export class TokenCountMemo {
  private readonly entries = new Map<string, Entry>();
  private heldChars = 0;
  /** Counts answered from the memo. */
  hits = 0;

  constructor(private readonly maxChars = TOKEN_MEMO_MAX_CHARS) {}

  /** Characters of the texts held. */
  get chars(): number {
    return this.heldChars;
  }

  /** `text`'s count for `account`: remembered, or `scan`'s (then remembered). */
  count(account: string, text: string, scan: (text: string) => number): number {
    const entry = this.entries.get(text);
    if (entry?.accounts.includes(account)) {
      // Most recently used last: a Map iterates in insertion order, so the oldest go first below.
      this.entries.delete(text);
      this.entries.set(text, entry);
      this.hits++;
      return entry.tokens;
    }
    const tokens = scan(text);
    if (entry) {
      entry.accounts.push(account);
      if (entry.accounts.length > MAX_ACCOUNTS_PER_TEXT) entry.accounts.shift();
      return tokens;
    }
    this.entries.set(text, { tokens, accounts: [account] });
    this.heldChars += text.length;
    if (this.heldChars > this.maxChars) {
      for (const oldest of this.entries.keys()) {
        this.entries.delete(oldest);
        this.heldChars -= oldest.length;
        if (this.heldChars <= this.maxChars) break;
      }
    }
    return tokens;
  }
}

let scope: { memo: TokenCountMemo; account: string } | undefined;

/** Runs `estimate` with `memo` remembering `account`'s long texts for every token count inside it. */
export function withTokenMemo<T>(memo: TokenCountMemo, account: string, estimate: () => T): T {
  const outer = scope;
  scope = { memo, account };
  try {
    return estimate();
  } finally {
    scope = outer;
  }
}

/** `text`'s count through the memo in scope when there is one and the text is long enough; else `scan`'s. */
export function countThroughMemo(text: string, scan: (text: string) => number): number {
  if (scope === undefined || text.length < TOKEN_MEMO_MIN_CHARS || text.length > TOKEN_MEMO_MAX_TEXT_CHARS) return scan(text);
  return scope.memo.count(scope.account, text, scan);
}
