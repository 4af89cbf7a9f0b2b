/**
 * A fixed operator secret (admin token, metrics token) checked against `Authorization: Bearer …`.
 * Both sides are hashed first, so the comparison is constant-time and leaks not even the length.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string) => createHash('sha256').update(s).digest();

export class BearerSecret {
  private readonly expected: Buffer | null;

  constructor(secret: string | undefined) {
    this.expected = secret ? digest(secret) : null;
  }

  /** Whether a secret is configured at all (none: nothing matches). */
  get configured(): boolean {
    return this.expected !== null;
  }

  matches(authorization: string | undefined): boolean {
    const given = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    return this.expected !== null && given !== undefined && timingSafeEqual(digest(given), this.expected);
  }
}
