/**
 * Sign-up as the operator configures it (UNIGATE_SIGNUP, UNIGATE_SIGNUP_INVITES,
 * UNIGATE_SIGNUP_CREDIT_USD), the session cookie's flags by host, and the throttles on sign-up and
 * log-in with the client address UNIGATE_TRUST_PROXY says to believe. The edge runs in-process on a
 * billing port that records sign-ups and knows no password.
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { UserView } from '@unigate/contracts';
import { createLogger } from '@unigate/platform';
import type { FastifyInstance } from 'fastify';
import { createEdgeApp } from '../src/create-edge-app';
import { parseTrustProxy } from '../src/http/http-settings';
import { FORM_LIMIT_BYTES, LOGIN_MAX_FAILURES_PER_EMAIL, SIGNUPS_PER_ADDRESS } from '../src/web/register-web';
import type { WebSettings } from '../src/web/web-settings';

const OPEN: WebSettings = { signup: true, invites: new Set(), creditMicros: 0, tier: 'free' };

async function edge(web: WebSettings, trustProxy = 'loopback,linklocal,uniquelocal') {
  const signups: Array<[string, number, string?]> = [];
  const billing = {
    registerUser: async (email: string, _password: string, credit: number, tier?: string): Promise<UserView> => {
      signups.push([email, credit, tier]);
      return { id: 'u1', email, account_id: 'a1' };
    },
    verifyUser: async () => null,
  };
  const app = (await createEdgeApp({
    ports: { billing: billing as never, catalog: {} as never, services: {} },
    logger: createLogger('signup-settings-test'),
    instanceId: 'signup-settings-test',
    reservations: { checkReady: async () => undefined } as never,
    adminToken: 'x'.repeat(32),
    web,
    http: { trustProxy: parseTrustProxy(trustProxy) },
  })) as NestFastifyApplication;
  await app.init();
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  await fastify.ready();
  /** POST `path` as a browser would on `host`: the CSRF cookie from the form's GET, sent back with its token. */
  const post = async (
    path: string,
    email: string,
    via: { host?: string; peer?: string; forwardedFor?: string; forwarded?: Record<string, string> } = {},
  ) => {
    const host = via.host ?? '127.0.0.1:8080';
    const form = await fastify.inject({ method: 'GET', url: path, headers: { host, ...via.forwarded } });
    const csrf = /unigate_csrf=([\w-]+)/.exec(String(form.headers['set-cookie']))![1];
    return fastify.inject({
      method: 'POST',
      url: path,
      remoteAddress: via.peer ?? '127.0.0.1',
      headers: {
        host,
        cookie: `unigate_csrf=${csrf}`,
        'content-type': 'application/x-www-form-urlencoded',
        ...(via.forwardedFor && { 'x-forwarded-for': via.forwardedFor }),
        ...via.forwarded,
      },
      payload: `_csrf=${csrf}&email=${encodeURIComponent(email)}&password=long+enough+password`,
    });
  };
  const signup = (email: string, host?: string) => post('/signup', email, { host });
  return { app, signups, signup, post };
}

describe('sign-up settings over HTTP', () => {
  it('UNIGATE_SIGNUP=off: the form says sign-up is closed and a POST creates nothing', async () => {
    const { app, signups, signup } = await edge({ signup: false, invites: new Set(), creditMicros: 0, tier: 'free' });
    const res = await signup('a@x.io');
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('Sign-up is closed');
    expect(signups).toEqual([]);
    await app.close();
  });

  it('invites: only invited emails sign up, with the configured credit and tier; the cookie is Secure off localhost', async () => {
    const { app, signups, signup } = await edge({ signup: true, invites: new Set(['a@x.io']), creditMicros: 2_500_000, tier: 'paid' });
    const refused = await signup('b@y.io');
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('by invitation');

    const local = await signup('A@x.io');
    expect(local.statusCode).toBe(303);
    expect(local.headers.location).toBe('/dashboard');
    const localCookie = [local.headers['set-cookie']].flat().find((c) => c!.startsWith('unigate_session='))!;
    expect(localCookie).toMatch(/; HttpOnly; SameSite=Lax; /);
    expect(localCookie).not.toContain('Secure');

    const remote = await signup('a@x.io', 'gateway.example.com');
    const remoteCookie = [remote.headers['set-cookie']].flat().find((c) => c!.startsWith('unigate_session='))!;
    expect(remoteCookie).toMatch(/; HttpOnly; SameSite=Lax; .*; Secure$/);
    expect(signups).toEqual([
      ['A@x.io', 2_500_000, 'paid'],
      ['a@x.io', 2_500_000, 'paid'],
    ]);
    await app.close();
  });

  it('behind a TLS-terminating proxy that sends its own Host, the cookies are Secure (X-Forwarded-Proto: https)', async () => {
    const { app, post } = await edge(OPEN);
    // nginx's default: Host is the upstream's (loopback), the client's scheme and host are forwarded.
    const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'gateway.example.com' };
    const res = await post('/signup', 'p@x.io', { host: '127.0.0.1:8080', forwarded });
    expect(res.statusCode).toBe(303);
    const cookies = [res.headers['set-cookie']].flat() as string[];
    expect(cookies.find((c) => c.startsWith('unigate_session='))).toMatch(/; Secure$/);
    // The form's CSRF cookie too.
    const form = await app
      .getHttpAdapter()
      .getInstance()
      .inject({ method: 'GET', url: '/login', headers: { host: '127.0.0.1:8080', ...forwarded } });
    expect(String(form.headers['set-cookie'])).toMatch(/^unigate_csrf=.*; Secure$/);
    await app.close();
  });
});

describe('a form too large', () => {
  it(`over ${FORM_LIMIT_BYTES} bytes: 413 as a page stating that limit; the API's errors stay JSON`, async () => {
    const { app, signups, post } = await edge(OPEN);
    const res = await post('/signup', `${'a'.repeat(FORM_LIMIT_BYTES)}@x.io`);
    expect(res.statusCode).toBe(413);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain(`larger than ${FORM_LIMIT_BYTES / 1024} KiB`);
    expect(signups).toEqual([]);
    // Every other failure of a web route goes on to the gateway's handler, as before.
    const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
    const bad = await fastify.inject({ method: 'POST', url: '/signup', headers: { 'content-type': 'application/json' }, payload: '{' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'invalid_json' } });
    await app.close();
  });
});

describe('throttles on the web forms', () => {
  it(`sign-up: ${SIGNUPS_PER_ADDRESS} per client address per hour, then 429; another address behind the proxy is not affected`, async () => {
    const { app, signups, post } = await edge(OPEN);
    const via = { forwardedFor: '198.51.100.7' };
    for (let i = 0; i < SIGNUPS_PER_ADDRESS; i++) expect((await post('/signup', `u${i}@x.io`, via)).statusCode).toBe(303);
    const refused = await post('/signup', 'one-more@x.io', via);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('3600');
    expect(refused.body).toContain('Too many sign-ups');
    expect((await post('/signup', 'other@x.io', { forwardedFor: '198.51.100.8' })).statusCode).toBe(303);
    expect(signups).toHaveLength(SIGNUPS_PER_ADDRESS + 1);
    await app.close();
  });

  it('a client on a public address cannot pick its address with X-Forwarded-For (default UNIGATE_TRUST_PROXY)', async () => {
    const { app, post } = await edge(OPEN);
    const statuses: number[] = [];
    for (let i = 0; i <= SIGNUPS_PER_ADDRESS; i++)
      statuses.push((await post('/signup', `s${i}@x.io`, { peer: '203.0.113.5', forwardedFor: `198.51.100.${i}` })).statusCode);
    expect(statuses.at(-1)).toBe(429);
    await app.close();
  });

  it('UNIGATE_TRUST_PROXY=true believes any X-Forwarded-For (for a proxy the operator vouches for)', async () => {
    const { app, post } = await edge(OPEN, 'true');
    const statuses: number[] = [];
    for (let i = 0; i <= SIGNUPS_PER_ADDRESS; i++)
      statuses.push((await post('/signup', `t${i}@x.io`, { peer: '203.0.113.5', forwardedFor: `198.51.100.${i}` })).statusCode);
    expect(statuses.every((s) => s === 303)).toBe(true);
    await app.close();
  });

  it(`log-in: guesses for one email spread over many addresses stop after ${LOGIN_MAX_FAILURES_PER_EMAIL}`, async () => {
    const { app, post } = await edge(OPEN);
    const statuses: number[] = [];
    for (let i = 0; i <= LOGIN_MAX_FAILURES_PER_EMAIL; i++)
      statuses.push((await post('/login', 'victim@x.io', { forwardedFor: `198.51.100.${i}` })).statusCode);
    expect(statuses.slice(0, LOGIN_MAX_FAILURES_PER_EMAIL).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Another email is not affected.
    expect((await post('/login', 'someone@x.io', { forwardedFor: '198.51.100.99' })).statusCode).toBe(401);
    await app.close();
  });
});

describe('parseTrustProxy', () => {
  it.each([
    ['true', true],
    ['false', false],
    ['2', 2],
    ['loopback, 10.0.0.0/8', ['loopback', '10.0.0.0/8']],
  ])('%s', (value, parsed) => expect(parseTrustProxy(value)).toEqual(parsed));
});
