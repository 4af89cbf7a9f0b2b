/**
 * Time-limited links the gateway serves itself (`GET /v1/files/{key}?expires=…&signature=…`): an
 * HMAC-SHA256 of the key and expiry under a secret every edge and the media service share. A link
 * is refused (403) once expired or altered.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const FILES_PATH = '/v1/files';
/** SPEC.md §2.3: result links are valid for 24 hours. */
export const RESULT_LINK_TTL_MS = 24 * 60 * 60 * 1000;

export class LinkSigner {
  constructor(private readonly secret: string) {
    if (secret.length < 16) throw new Error('the link secret must be at least 16 characters');
  }

  /** The gateway-relative link to `key`, valid until `expiresAt` (epoch ms). */
  link(key: string, expiresAt: number): string {
    const expires = Math.floor(expiresAt / 1000);
    return `${FILES_PATH}/${key}?expires=${expires}&signature=${this.signature(key, expires)}`;
  }

  /** 'ok', or why the link is refused. */
  check(key: string, expires: string | undefined, signature: string | undefined, now = Date.now()): 'ok' | 'expired' | 'invalid' {
    if (!expires || !signature || !/^\d{1,12}$/.test(expires)) return 'invalid';
    const expected = Buffer.from(this.signature(key, Number(expires)));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
    return Number(expires) * 1000 <= now ? 'expired' : 'ok';
  }

  private signature(key: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${key}\n${expires}`).digest('base64url');
  }
}
