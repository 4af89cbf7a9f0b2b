/**
 * Bearer sk-… → the calling key's principal, from the replica's KeyCache; billing is asked only when
 * the cache cannot answer, and a busy key never waits for it:
 * - a key looked up more than half its TTL ago is looked up again in the background while the cached
 *   answer serves;
 * - lookups of one key share one call to billing (a burst after a restart makes one, not hundreds);
 * - when billing cannot answer (down, hung, too slow: the client's deadline), a key it confirmed less
 *   than STALE_IF_ERROR_MS past its TTL keeps being served — after one failed lookup, without waiting
 *   for the next (a background lookup per key tells when billing is back). Nothing about a key can
 *   change while billing is away: revocations, tiers and limits all go through it. A key billing never
 *   confirmed gets the lookup's error (a 503);
 * - an address that sent many keys billing did not know has keys the cache cannot answer refused 429
 *   for a while, without a lookup (UnknownKeyBudget).
 */
import { errors, hashApiKey, type BillingPort, type KeyPrincipal } from '@unigate/contracts';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { readEnv, wholeNumber } from '@unigate/platform';
import { DEFAULT_KEY_CACHE_TTL_MS, KeyCache, type CachedKey } from './key-cache';
import { DEFAULT_UNKNOWN_KEY_LIMIT, UnknownKeyBudget } from './unknown-key-budget';

export interface AuthOptions {
  /** `/v1/messages` also accepts Anthropic's `x-api-key` header. */
  allowXApiKey?: boolean;
}

export interface AuthenticatorOptions {
  /** How long a key billing confirmed is trusted without asking again (default 30 s). */
  ttlMs?: number;
  /** Told when a lookup fails after one succeeded (`failing` true, with the error), and when one succeeds again. */
  onBillingFailing?: (failing: boolean, err?: unknown) => void;
  /** Unknown keys per client address in 10 s before its uncached keys are refused 429 (default 100; 0: no limit). */
  unknownKeyLimit?: number;
  /** Told when an address has used up its unknown keys (once per window). */
  onUnknownKeysExhausted?: (address: string) => void;
  now?: () => number;
}

/** What authentication reads of a request: its headers, and its client's address when known (`request.ip`). */
export type AuthRequest = Pick<FastifyRequest, 'headers'> & { ip?: string };

const envSchema = z.object({
  UNIGATE_KEY_CACHE_TTL_MS: wholeNumber(1_000, 3_600_000, 'UNIGATE_KEY_CACHE_TTL_MS must be a whole number of ms, 1000–3600000'),
  UNIGATE_UNKNOWN_KEY_LIMIT: wholeNumber(0, 1_000_000, 'UNIGATE_UNKNOWN_KEY_LIMIT must be a whole number, 0–1000000'),
});

/** UNIGATE_KEY_CACHE_TTL_MS, or the default. */
export function keyCacheTtlFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  return readEnv(envSchema, env).UNIGATE_KEY_CACHE_TTL_MS ?? DEFAULT_KEY_CACHE_TTL_MS;
}

/** UNIGATE_UNKNOWN_KEY_LIMIT (unknown keys per client address in 10 s; 0: no limit), or the default. */
export function unknownKeyLimitFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  return readEnv(envSchema, env).UNIGATE_UNKNOWN_KEY_LIMIT ?? DEFAULT_UNKNOWN_KEY_LIMIT;
}

export class Authenticator {
  readonly cache: KeyCache;
  /** Bumped by every key-stale event (a revocation or a change of settings); see lookUp(). */
  private staleEvents = 0;
  /** Keys cached before this time are asked of billing again at their next use (recheckAll). */
  private recheckBefore = -Infinity;
  /** Lookups under way, by key hash. */
  private readonly lookups = new Map<string, Promise<KeyPrincipal | null>>();
  /** Set while the last lookup failed: known keys past their TTL are then served without waiting. */
  private billingFailing = false;
  private readonly now: () => number;
  private readonly unknownKeys: UnknownKeyBudget;

  constructor(
    private readonly billing: BillingPort,
    private readonly opts: AuthenticatorOptions = {},
  ) {
    this.cache = new KeyCache(opts.ttlMs);
    this.now = opts.now ?? Date.now;
    this.unknownKeys = new UnknownKeyBudget(opts.unknownKeyLimit);
  }

  /**
   * The caller's principal: at once when this replica's cache answers (the usual case, and then no
   * promise is made on the request's path), otherwise once billing has.
   */
  authenticate(request: AuthRequest, opts: AuthOptions = {}): KeyPrincipal | Promise<KeyPrincipal> {
    const key = extractKey(request, opts);
    if (!key) throw errors.invalidApiKey('Missing API key. Send it as Authorization: Bearer sk-...');
    const hash = hashApiKey(key);
    const address = request.ip;
    // A key this replica has never heard of needs billing: not for an address that sent too many
    // keys billing did not know.
    const now = this.now();
    const cached = this.cache.get(hash, now);
    if (cached === undefined) {
      const wait = this.unknownKeys.waitFor(address, now);
      if (wait > 0) throw errors.rateLimited(`Too many requests with unknown API keys from this address; retry after ${wait} s.`, wait);
    }
    const principal = this.principalOf(hash, cached, now);
    if (!(principal instanceof Promise)) return known(principal);
    // Billing was asked (a cached "unknown" answers without it): an unknown key is counted.
    return principal.then((found) => {
      if (!found && this.unknownKeys.spend(address, this.now())) this.opts.onUnknownKeysExhausted?.(address!);
      return known(found);
    });
  }

  /** A route's onRequest hook that authenticates the caller's key and sets `request.principal` (routes outside the pipeline). */
  readonly onRequest = async (request: FastifyRequest): Promise<void> => {
    request.principal = await this.authenticate(request);
  };

  /** The key's cached principal is stale (revoked, or its settings changed): drop it, ask billing next time. */
  stale(keyHash: string): void {
    this.staleEvents++;
    this.cache.delete(keyHash);
  }

  /**
   * Key-stale events may have been missed (this replica's consumer started over, from the topic's
   * end): every cached key is asked of billing again at its next use, as one past its TTL is (served
   * meanwhile only while billing cannot answer).
   */
  recheckAll(): void {
    // Not a key-stale event: an answer billing is giving now is still cached (as of when it was
    // asked, so asked again at its next use), and serves its key while billing cannot answer. Counted
    // as one, it was dropped: a key whose only lookup raced the consumer's join (an edge's first
    // requests) then had nothing to fall back on, and got a 503 for as long as billing was away.
    this.recheckBefore = this.now();
  }

  /** What `cached` (the cache's entry for `hash`, read once by the caller) answers, or billing's lookup. */
  private principalOf(hash: string, cached: CachedKey | undefined, now: number): KeyPrincipal | null | Promise<KeyPrincipal | null> {
    if (!cached) return this.lookUp(hash);
    const { principal, age } = cached;
    // Unknown keys are cached for a second at most, never past their TTL.
    if (principal === null) return null;
    // Cached (now − age) before a recheck, or in its millisecond: asked again, as past its TTL.
    if (age < this.cache.ttlMs && now - age > this.recheckBefore) {
      if (age >= this.cache.ttlMs / 2) this.lookUpInBackground(hash);
      return principal;
    }
    if (this.billingFailing) {
      this.lookUpInBackground(hash);
      return principal;
    }
    return this.lookUpOrKeep(hash, principal);
  }

  /** A key past its TTL: billing's answer, or the cached one if billing cannot answer. */
  private async lookUpOrKeep(hash: string, principal: KeyPrincipal): Promise<KeyPrincipal | null> {
    const epoch = this.staleEvents;
    try {
      return await this.lookUp(hash);
    } catch (err) {
      // lookUp flagged the failure (and reported it); a key billing did confirm stays served, unless
      // a key-stale event came meanwhile (it may be this key's: revoked, or its limits changed).
      if (epoch !== this.staleEvents) throw err;
      return principal;
    }
  }

  private lookUpInBackground(hash: string): void {
    if (this.lookups.has(hash)) return;
    // Its failure is what billingFailing records.
    this.lookUp(hash).catch(() => undefined);
  }

  /** One call to billing per key at a time; its answer is cached unless a key-stale event came meanwhile. */
  private lookUp(hash: string): Promise<KeyPrincipal | null> {
    const pending = this.lookups.get(hash);
    if (pending) return pending;
    const epoch = this.staleEvents;
    // Cached as of the question: an answer to a lookup under way when events may have been missed
    // (recheckAll) is then asked again at its next use.
    const askedAt = this.now();
    const lookup = this.billing
      .authenticate(hash)
      .then(
        (principal) => {
          // A key-stale event that arrived while billing was answering may concern this very key: caching
          // the (possibly stale) answer would keep a revoked key alive, or its old limits, for a whole TTL
          // on this replica.
          if (epoch === this.staleEvents) this.cache.set(hash, principal, askedAt);
          if (this.billingFailing) {
            this.billingFailing = false;
            this.opts.onBillingFailing?.(false);
          }
          return principal;
        },
        (err: unknown) => {
          if (!this.billingFailing) {
            this.billingFailing = true;
            this.opts.onBillingFailing?.(true, err);
          }
          throw err;
        },
      )
      .finally(() => this.lookups.delete(hash));
    this.lookups.set(hash, lookup);
    return lookup;
  }
}

function extractKey(request: Pick<FastifyRequest, 'headers'>, opts: AuthOptions): string | undefined {
  const auth = request.headers.authorization;
  if (auth) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    return m?.[1];
  }
  if (opts.allowXApiKey) {
    const k = request.headers['x-api-key'];
    return Array.isArray(k) ? k[0] : k;
  }
  return undefined;
}

/** A principal, or the 401 of a key nobody knows. */
function known(principal: KeyPrincipal | null): KeyPrincipal {
  if (!principal) throw errors.invalidApiKey('Incorrect API key provided.');
  return principal;
}
