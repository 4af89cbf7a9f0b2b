/**
 * Anthropic's prompt caching, simulated: a request marks cache breakpoints with `cache_control` on
 * tools, system blocks and message blocks (in that order). The prefix up to a breakpoint is cached
 * for its ttl (5 minutes, or 1 hour with `ttl: '1h'`) once a request carried it; a later request
 * with the same prefix — ending at one of its breakpoints, or at one of the 20 blocks before one, as
 * the API looks back — reads the longest cached one (`cache_read_input_tokens`) and writes the rest up
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
/** Block boundaries before a breakpoint that a read also checks ("about 20" in Anthropic's docs). */
const LOOKBACK = 20;

type Request = Pick<AnthropicCountTokensRequest, 'model' | 'system' | 'tools' | 'messages'>;
type Marked = { cache_control?: { ttl?: '5m' | '1h' } | null };

type Prefix = Pick<Request, 'tools' | 'system' | 'messages'>;

/** The prompt up to and including one tool, system block or message block, in the API's order. */
interface Boundary {
  marked: Marked['cache_control'];
  /** Where the block is, as Anthropic's errors name it (`messages.2.content.0`). */
  path: string;
  /** What this block adds to the prefix's cache key: the block without its marker, and where it sits. */
  part: unknown;
  prefixOf: () => Prefix;
}

interface Breakpoint {
  index: number;
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

  /**
   * Reads and writes the cache for one request; the counts to report in its usage. A read is the
   * longest cached prefix ending at a breakpoint or at one of the LOOKBACK blocks before it, as the API
   * checks earlier block boundaries: a conversation whose marker moves to its newest block each turn
   * reads back what the turn before wrote.
   */
  use(req: Request): CacheUse {
    const all = boundaries(req);
    const points: Breakpoint[] = all.flatMap((b, index) =>
      b.marked ? [{ index, tokens: tokensOf(b), ttl: b.marked.ttl === '1h' ? ('1h' as const) : ('5m' as const) }] : [],
    );
    const cached = points.filter((b) => b.tokens >= MIN_CACHEABLE_TOKENS);
    if (cached.length === 0) return unused();
    const candidates = new Set<number>();
    for (const b of cached) for (let i = b.index; i >= Math.max(0, b.index - LOOKBACK); i--) candidates.add(i);
    const keys = keysAt(req.model, all, candidates);
    const now = this.now();
    this.prune(now);
    const hit = [...candidates].sort((a, b) => b - a).find((i) => (this.entries.get(keys.get(i)!) ?? 0) > now);
    const read = hit === undefined ? 0 : (cached.find((b) => b.index === hit)?.tokens ?? tokensOf(all[hit]));
    const last = cached[cached.length - 1];
    // A read refreshes the entry it read, as a write sets each breakpoint's.
    if (hit !== undefined) this.entries.set(keys.get(hit)!, Math.max(this.entries.get(keys.get(hit)!)!, now + TTL_MS['5m']));
    for (const b of cached) this.entries.set(keys.get(b.index)!, now + TTL_MS[b.ttl]);
    const hourUpTo = Math.max(read, ...cached.filter((b) => b.ttl === '1h').map((b) => b.tokens));
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

/**
 * Every block boundary of the request, in order. No prefix is built here: built for every block, a
 * request of n blocks (or tools) would copy n²/2 of them; only a breakpoint's (at most 4) and a read's
 * are.
 */
function boundaries(req: Request): Boundary[] {
  const tools = req.tools ?? [];
  const system = typeof req.system === 'string' ? [{ type: 'text' as const, text: req.system }] : (req.system ?? []);
  const out: Boundary[] = [];
  tools.forEach((tool, i) =>
    out.push({
      marked: (tool as Marked).cache_control,
      path: `tools.${i}`,
      part: ['tool', unmarked(tool)],
      prefixOf: () => ({ tools: tools.slice(0, i + 1), messages: [] }),
    }),
  );
  system.forEach((block, i) =>
    out.push({
      marked: (block as Marked).cache_control,
      path: `system.${i}`,
      part: ['system', unmarked(block)],
      prefixOf: () => ({ tools, system: typeof req.system === 'string' ? req.system : system.slice(0, i + 1), messages: [] }),
    }),
  );
  req.messages.forEach((m, i) => {
    const blocks: AnthropicContentBlock[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    blocks.forEach((block, j) =>
      out.push({
        marked: (block as Marked).cache_control,
        path: `messages.${i}.content.${j}`,
        part: ['message', i, m.role, unmarked(block)],
        prefixOf: () => ({ tools, system: req.system, messages: [...req.messages.slice(0, i), { ...m, content: blocks.slice(0, j + 1) }] }),
      }),
    );
  });
  const found = out.filter((b) => b.marked).length;
  if (found > MAX_BREAKPOINTS) {
    throw new GatewayError({
      status: 400,
      code: 'invalid_request_error',
      message: `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${found}.`,
    });
  }
  refuseOneHourAfterFiveMinutes(out);
  return out;
}

/**
 * Anthropic takes a one-hour breakpoint only before every five-minute one (ttl "5m" or none), in the
 * order it reads blocks: a longer-lived prefix cannot end past a shorter-lived one.
 */
function refuseOneHourAfterFiveMinutes(blocks: readonly Boundary[]): void {
  let fiveMinutes = false;
  for (const b of blocks) {
    if (!b.marked) continue;
    if (b.marked.ttl !== '1h') {
      fiveMinutes = true;
    } else if (fiveMinutes) {
      throw new GatewayError({
        status: 400,
        code: 'invalid_request_error',
        message: `${b.path}.cache_control.ttl: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are processed in the following order: \`tools\`, \`system\`, \`messages\`.`,
      });
    }
  }
}

/** A block as the cache keys it: the marker is where the prefix ends, not part of its content. */
function unmarked(block: unknown): unknown {
  return { ...(block as object), cache_control: undefined };
}

/** The size of the prompt prefix a boundary closes, by the shared estimator. */
function tokensOf(boundary: Boundary): number {
  const prefix = boundary.prefixOf();
  return Math.max(0, countPromptTokens(promptMessages({ system: prefix.system, messages: prefix.messages })) - REPLY_PRIMING_TOKENS);
}

/** The cache key of the prefix ending at each wanted boundary: one running hash, read where wanted. */
function keysAt(model: string, all: Boundary[], wanted: Set<number>): Map<number, string> {
  const keys = new Map<number, string>();
  const hash = createHash('sha1').update(JSON.stringify(model));
  const end = Math.max(...wanted);
  for (let i = 0; i <= end; i++) {
    hash.update(JSON.stringify(all[i].part));
    if (wanted.has(i)) keys.set(i, hash.copy().digest('hex'));
  }
  return keys;
}
