/**
 * Anthropic's prompt caching, simulated: a request marks cache breakpoints with `cache_control` on
 * tools, system blocks and message blocks (in that order). The prefix up to a breakpoint is cached
 * for its ttl (5 minutes, or 1 hour with `ttl: '1h'`) once a request carried it; a later request
 * with the same prefix reads the longest cached one (`cache_read_input_tokens`) and writes the rest up
 * to its last breakpoint (`cache_creation_input_tokens`), split by ttl in `cache_creation` as the API
 * does: from the read up to the last one-hour breakpoint after it at the one-hour rate, the rest at
 * the five-minute rate. Prefixes under 1,024 tokens are not cached, as with the real API. Tokens are
 * the shared estimator's, as everywhere in the simulator.
 */
import {
  countPromptTokens,
  dropOldest,
  GatewayError,
  REPLY_PRIMING_TOKENS,
  type AnthropicContentBlock,
  type AnthropicCountTokensRequest,
} from '@unigate/contracts';
import { createHash } from 'node:crypto';
import { promptMessages } from './anthropic-prompt';

export const MIN_CACHEABLE_TOKENS = 1024;
/** Breakpoints one request may mark, as with the real API (more is a 400 there too). */
export const MAX_BREAKPOINTS = 4;
const TTL_MS = { '5m': 5 * 60_000, '1h': 60 * 60_000 } as const;
const MAX_ENTRIES = 10_000;

type Request = Pick<AnthropicCountTokensRequest, 'model' | 'system' | 'tools' | 'messages'>;
type Marked = { cache_control?: { ttl?: '5m' | '1h' } | null };

interface Breakpoint {
  key: string;
  tokens: number;
  ttl: '5m' | '1h';
}

export interface CacheUse {
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
}

const unused = (): CacheUse => ({
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
  cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
});

export class PromptCache {
  private readonly entries = new Map<string, number>();
  private sweptAt = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Reads and writes the cache for one request; the counts to report in its usage. */
  use(req: Request): CacheUse {
    const points = breakpoints(req).filter((b) => b.tokens >= MIN_CACHEABLE_TOKENS);
    if (points.length === 0) return unused();
    const now = this.now();
    this.prune(now);
    const hit = [...points].reverse().find((b) => (this.entries.get(b.key) ?? 0) > now);
    const read = hit?.tokens ?? 0;
    const last = points[points.length - 1];
    for (const b of points) this.entries.set(b.key, now + TTL_MS[b.ttl]); // a read refreshes the ttl too
    const hourUpTo = Math.max(read, ...points.filter((b) => b.ttl === '1h').map((b) => b.tokens));
    return {
      cache_read_input_tokens: read,
      cache_creation_input_tokens: last.tokens - read,
      cache_creation: { ephemeral_5m_input_tokens: last.tokens - hourUpTo, ephemeral_1h_input_tokens: hourUpTo - read },
    };
  }

  /**
   * Expired entries are swept at most once a second, not on every request: a sweep walks them all, and
   * an expired entry left in place a moment longer is still a miss (its time is checked on lookup).
   */
  private prune(now: number): void {
    if (now - this.sweptAt >= 1000) {
      this.sweptAt = now;
      for (const [key, expires] of this.entries) if (expires <= now) this.entries.delete(key);
    }
    dropOldest(this.entries, MAX_ENTRIES);
  }
}

/** Every breakpoint of the request with the size of the prompt prefix it closes. */
function breakpoints(req: Request): Breakpoint[] {
  const out: Breakpoint[] = [];
  const tools = req.tools ?? [];
  const system = typeof req.system === 'string' ? undefined : req.system;
  // Each breakpoint hashes and counts its whole prefix, so they are capped before any is built: n
  // marked blocks would cost n²/2.
  const markedIn = (items: readonly unknown[]) => items.filter((x) => (x as Marked).cache_control).length;
  const found =
    markedIn(tools) +
    markedIn(system ?? []) +
    req.messages.reduce((n, m) => n + (typeof m.content === 'string' ? 0 : markedIn(m.content)), 0);
  if (found > MAX_BREAKPOINTS) {
    throw new GatewayError({
      status: 400,
      code: 'invalid_request_error',
      message: `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${found}.`,
    });
  }
  // The prefix is built only for a marked block: built for every block, a request of n unmarked
  // blocks (or tools) would copy n²/2 of them.
  const add = (marked: Marked, prefixOf: () => Pick<Request, 'tools' | 'system' | 'messages'>) => {
    if (!marked.cache_control) return;
    const prefix = prefixOf();
    const key = createHash('sha1')
      .update(JSON.stringify([req.model, prefix]))
      .digest('hex');
    const tokens = Math.max(
      0,
      countPromptTokens(promptMessages({ system: prefix.system, messages: prefix.messages })) - REPLY_PRIMING_TOKENS,
    );
    out.push({ key, tokens, ttl: marked.cache_control.ttl === '1h' ? '1h' : '5m' });
  };
  tools.forEach((tool, i) => add(tool as Marked, () => ({ tools: tools.slice(0, i + 1), messages: [] })));
  (system ?? []).forEach((block, i) => add(block, () => ({ tools, system: system!.slice(0, i + 1), messages: [] })));
  req.messages.forEach((m, i) => {
    if (typeof m.content === 'string') return;
    const blocks = m.content;
    blocks.forEach((block: AnthropicContentBlock, j) => {
      add(block as Marked, () => ({
        tools,
        system: req.system,
        messages: [...req.messages.slice(0, i), { ...m, content: blocks.slice(0, j + 1) }],
      }));
    });
  });
  return out;
}
