import { errors, hashApiKey, type BillingPort, type KeyPrincipal } from '@unigate/contracts';
import type { FastifyRequest } from 'fastify';
import { KeyCache } from './key-cache';

export interface AuthOptions {
  /** `/v1/messages` also accepts Anthropic's `x-api-key` header. */
  allowXApiKey?: boolean;
}

/** Bearer sk-… → the calling key's principal, or a 401. */
export class Authenticator {
  readonly cache = new KeyCache();
  /** Bumped by every revocation; see authenticate(). */
  private revocations = 0;

  constructor(private readonly billing: BillingPort) {}

  async authenticate(request: FastifyRequest, opts: AuthOptions = {}): Promise<KeyPrincipal> {
    const key = extractKey(request, opts);
    if (!key) throw errors.invalidApiKey('Missing API key. Send it as Authorization: Bearer sk-...');
    const hash = hashApiKey(key);
    let principal = this.cache.get(hash);
    if (principal === undefined) {
      const epoch = this.revocations;
      principal = await this.billing.authenticate(hash);
      // A revocation that arrived while billing was answering may concern this very key: caching the
      // (possibly stale) answer would keep a revoked key alive for a whole TTL on this replica.
      if (epoch === this.revocations) this.cache.set(hash, principal);
    }
    if (!principal) throw errors.invalidApiKey('Incorrect API key provided.');
    return principal;
  }

  revoked(keyHash: string): void {
    this.revocations++;
    this.cache.delete(keyHash);
  }
}

function extractKey(request: FastifyRequest, opts: AuthOptions): string | undefined {
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
