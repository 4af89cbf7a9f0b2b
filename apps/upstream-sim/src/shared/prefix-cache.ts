/**
 * Automatic context caching as vendors model it: a request whose leading messages were already sent
 * (same model, same messages in the same order) is served those messages "from cache", and reports
 * their tokens as cached prompt tokens. Prefixes are kept as chained hashes in a bounded LRU, so a
 * million-token conversation costs one hash per message, not its text.
 */
import { createHash } from 'node:crypto';
import { countPromptTokens, dropOldest, REPLY_PRIMING_TOKENS, type ChatMessage } from '@unigate/contracts';

export class PrefixCache {
  /** Prefix hash → nothing; Map iteration order is the LRU order (oldest first). */
  private readonly seen = new Map<string, true>();

  constructor(private readonly capacity = 20_000) {}

  /**
   * Tokens of the longest prefix of `messages` seen before under `scope` (a model name), or 0 when
   * that prefix is shorter than `minTokens` (vendors cache only from a minimum size). Records every
   * prefix of this request for the next one.
   */
  lookupAndRecord(scope: string, messages: readonly ChatMessage[], minTokens = 0): number {
    let hash = sha1(`scope:${scope}`);
    let tokens = 0;
    let cached = 0;
    let hitting = true;
    for (const m of messages) {
      hash = sha1(hash + JSON.stringify(m));
      tokens += countPromptTokens([m]) - REPLY_PRIMING_TOKENS;
      if (hitting && this.touch(hash)) cached = tokens;
      else {
        hitting = false;
        this.add(hash);
      }
    }
    return cached >= minTokens ? cached : 0;
  }

  clear(): void {
    this.seen.clear();
  }

  private touch(hash: string): boolean {
    if (!this.seen.delete(hash)) return false;
    this.seen.set(hash, true);
    return true;
  }

  private add(hash: string): void {
    this.seen.set(hash, true);
    dropOldest(this.seen, this.capacity);
  }
}

function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}
