/**
 * Dashboard sessions and CSRF. The cookie holds a random id; the state lives in the WebStore under
 * the id's SHA-256 (a store dump does not hand out live sessions). Logging out deletes the state,
 * so a copy of the cookie is refused afterwards. Forms carry a CSRF token: the session's own once
 * logged in, before that a random token double-submitted in a cookie (sign-up and log-in forms).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { UserView } from '@unigate/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WebStore } from './web-store';

export const SESSION_COOKIE = 'unigate_session';
export const CSRF_COOKIE = 'unigate_csrf';
const SESSION_TTL_MS = 7 * 86_400_000;

export interface Session {
  user: UserView;
  csrf: string;
}

const token = () => randomBytes(32).toString('base64url');
const sessionKey = (id: string) => `web:session:${createHash('sha256').update(id).digest('hex')}`;

export function readCookies(request: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i).trim()] = part.slice(i + 1).trim();
  }
  return out;
}

/**
 * Secure everywhere but on a loopback host reached over plain http, where browsers serve it. Host and
 * protocol are the client's as a proxy UNIGATE_TRUST_PROXY believes forwards them: a TLS-terminating
 * proxy that sends its upstream's Host (`127.0.0.1:8080`, nginx's default) still gets a Secure cookie.
 */
function cookie(request: FastifyRequest, name: string, value: string, maxAgeS: number): string {
  const host = request.host.replace(/:\d+$/, '').toLowerCase();
  const local = request.protocol !== 'https' && (host === 'localhost' || host === '127.0.0.1' || host === '[::1]');
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeS}${local ? '' : '; Secure'}`;
}

export class Sessions {
  constructor(private readonly store: WebStore) {}

  async read(request: FastifyRequest): Promise<Session | null> {
    const id = readCookies(request)[SESSION_COOKIE];
    if (!id) return null;
    const raw = await this.store.get(sessionKey(id));
    return raw ? (JSON.parse(raw) as Session) : null;
  }

  /** A new session (a new id at every log-in: an id planted before it is worth nothing). */
  async start(request: FastifyRequest, reply: FastifyReply, user: UserView): Promise<void> {
    const id = token();
    await this.store.set(sessionKey(id), JSON.stringify({ user, csrf: token() } satisfies Session), SESSION_TTL_MS);
    reply.header('set-cookie', cookie(request, SESSION_COOKIE, id, SESSION_TTL_MS / 1000));
  }

  async end(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const id = readCookies(request)[SESSION_COOKIE];
    if (id) await this.store.del(sessionKey(id));
    reply.header('set-cookie', cookie(request, SESSION_COOKIE, '', 0));
  }
}

/** The CSRF token for a form shown to a visitor without a session; sets its cookie when missing. */
export function anonymousCsrf(request: FastifyRequest, reply: FastifyReply): string {
  const existing = readCookies(request)[CSRF_COOKIE];
  if (existing && /^[\w-]{43}$/.test(existing)) return existing;
  const fresh = token();
  reply.header('set-cookie', cookie(request, CSRF_COOKIE, fresh, 86_400));
  return fresh;
}

/** Whether a POSTed `_csrf` field matches what the form was given. */
export function csrfMatches(sent: unknown, expected: string | undefined): boolean {
  if (typeof sent !== 'string' || !expected) return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
