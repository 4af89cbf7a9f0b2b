/**
 * Dashboard users: sign-up (a user and its own account in one transaction) and password checks.
 * Passwords are kept as argon2id PHC strings (hash-wasm: WebAssembly, so no native binary to ship).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { characterCount, errors, hasControlCharacters, type AccountTier, type UserView } from '@unigate/contracts';
import { argon2id, argon2Verify } from 'hash-wasm';
import type { DataSource } from 'typeorm';
import { insertAccount, requireTier } from './accounts';
import { UserEntity } from './entities';
import { requireMicros } from './validate';

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. */
const ARGON2 = { parallelism: 1, iterations: 2, memorySize: 19_456, hashLength: 32 } as const;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// Control characters are no part of an address (and Postgres text cannot hold NUL).
const isEmail = (normalized: string) => EMAIL.test(normalized) && normalized.length <= 254 && !hasControlCharacters(normalized);
export const PASSWORD_MIN = 8;
const PASSWORD_MAX = 200;

/**
 * A password's length in characters as people count them (an emoji is one, where `length` says two):
 * 8 to 200. A code point takes at most two UTF-16 units, so a longer string is not counted.
 */
const passwordLength = (password: string) => (password.length > 2 * PASSWORD_MAX ? Infinity : characterCount(password));

export function normalizeEmail(email: string): string {
  return typeof email === 'string' ? email.trim().toLowerCase() : '';
}

function hashPassword(password: string): Promise<string> {
  return argon2id({ ...ARGON2, password, salt: randomBytes(16), outputType: 'encoded' });
}

export class UserService {
  /** Checked against when the email is unknown, so both failures take as long. */
  private dummyHash?: Promise<string>;

  constructor(private readonly ds: DataSource) {}

  async register(email: string, password: string, creditMicros: number, tier: AccountTier = 'paid'): Promise<UserView> {
    const normalized = normalizeEmail(email);
    if (!isEmail(normalized)) throw errors.invalidRequest('email must be an email address', 'email');
    const length = typeof password === 'string' ? passwordLength(password) : 0;
    if (length < PASSWORD_MIN || length > PASSWORD_MAX)
      throw errors.invalidRequest(`password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`, 'password');
    requireMicros(creditMicros, 'credit_micros');
    requireTier(tier);
    const taken = () => errors.conflict('An account with this email exists already.', 'email');
    if (await this.ds.manager.existsBy(UserEntity, { email: normalized })) throw taken();
    const passwordHash = await hashPassword(password);
    return this.ds.transaction(async (m) => {
      const account = await insertAccount(m, normalized, creditMicros, tier);
      const user = { id: randomUUID(), email: normalized, passwordHash, accountId: account.id };
      // Two sign-ups racing for one email: the unique index decides, the loser's account rolls back.
      await m.insert(UserEntity, user).catch((err: { code?: string }) => {
        throw err.code === '23505' ? taken() : err;
      });
      return { id: user.id, email: normalized, account_id: account.id };
    });
  }

  async verify(email: string, password: string): Promise<UserView | null> {
    const normalized = normalizeEmail(email);
    // An address no one could have signed up with is unknown without a query.
    const user = isEmail(normalized) ? await this.ds.manager.findOneBy(UserEntity, { email: normalized }) : null;
    if (typeof password !== 'string' || passwordLength(password) > PASSWORD_MAX) return null;
    const hash = user?.passwordHash ?? (await (this.dummyHash ??= hashPassword(randomBytes(16).toString('hex'))));
    const ok = await argon2Verify({ password, hash });
    return ok && user ? { id: user.id, email: user.email, account_id: user.accountId } : null;
  }
}
