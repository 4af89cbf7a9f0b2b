/**
 * The sign-up, log-in and dashboard pages (docs/dashboard.md): /signup, /login, /logout, /dashboard.
 * Registered in their own Fastify context, so their form-encoded bodies never change how the API
 * parses its own (JSON whatever the Content-Type). Every POST from a page of another origin is
 * refused (Sec-Fetch-Site), then each checks the form's CSRF token first.
 */
import { createHash, randomBytes } from 'node:crypto';
import { parse as parseQuery } from 'node:querystring';
import { GatewayError, type BillingPort, type VideoTaskPort } from '@unigate/contracts';
import type { Logger } from '@unigate/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { dashboardPage, loginPage, messagePage, signupPage, type DashboardView } from './pages';
import { anonymousCsrf, csrfMatches, readCookies, CSRF_COOKIE, Sessions, type Session } from './sessions';
import { loadVideoView } from './video-view';
import { WEB_CSS } from './web.css';
import { signupRefusal, type WebSettings } from './web-settings';
import type { WebStore } from './web-store';
import { dropUnreadBody } from '../http/unread-body';

/** Failed log-ins allowed per email and client address in one window, before 429 (a success clears the count). */
export const LOGIN_MAX_FAILURES = 5;
/** Failed log-ins allowed per email from all addresses together: guesses spread over many addresses stop too. */
export const LOGIN_MAX_FAILURES_PER_EMAIL = 20;
const LOGIN_WINDOW_MS = 15 * 60_000;
/** Sign-ups one client address may make per hour, before 429. */
export const SIGNUPS_PER_ADDRESS = 10;
const SIGNUP_WINDOW_MS = 60 * 60_000;
const RECENT_REQUESTS = 20;
/** The usage table's days: today and the 30 before it (UTC). */
const USAGE_DAYS = 30;
const DAY_MS = 86_400_000;
/** How long a create-key form's one-time token is remembered (a reload after that could make a key again). */
const KEY_FORM_TTL_MS = 86_400_000;
/** A sign-up, log-in or dashboard form's largest body (its fields are an email, a password, a name). */
export const FORM_LIMIT_BYTES = 16_384;

const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1d2433"/><path d="M9 8v10a7 7 0 0 0 14 0V8h-4v10a3 3 0 0 1-6 0V8z" fill="#fff"/></svg>';
const CSP = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export interface WebDeps {
  billing: BillingPort;
  /** The video cards' source; unset where the deployment runs no video service. */
  videoTasks?: VideoTaskPort;
  store: WebStore;
  settings: WebSettings;
  logger: Logger;
}

type Form = Record<string, string | undefined>;

export function registerWeb(fastify: FastifyInstance, deps: WebDeps): void {
  const { billing, videoTasks, store, settings, logger } = deps;
  const sessions = new Sessions(store);

  const html = (reply: FastifyReply, status: number, body: string) =>
    reply
      .status(status)
      .type('text/html; charset=utf-8')
      .header('content-security-policy', CSP)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'same-origin')
      .header('cache-control', 'no-store')
      .send(body);
  const redirect = (reply: FastifyReply, to: string) => reply.status(303).header('location', to).header('cache-control', 'no-store').send();
  /** A GatewayError's message is meant for the user; anything else is logged and stays generic. */
  const userMessage = (err: unknown) => {
    if (err instanceof GatewayError && err.status < 500) return err.message;
    logger.error({ err }, 'dashboard request failed');
    return 'Something went wrong on our side. Please try again.';
  };
  const hashed = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest('hex');
  const failureKeys = (email: string, request: FastifyRequest) => {
    const normalized = email.trim().toLowerCase();
    return { pair: `web:login-fail:${hashed(normalized, request.ip)}`, email: `web:login-fail-email:${hashed(normalized)}` };
  };

  async function dashboard(
    request: FastifyRequest,
    reply: FastifyReply,
    session: Session,
    extra: Partial<DashboardView> = {},
    status = 200,
  ) {
    const accountId = session.user.account_id;
    const now = Date.now();
    const range = {
      from: new Date(now - USAGE_DAYS * DAY_MS).toISOString().slice(0, 10),
      to: new Date(now + DAY_MS).toISOString().slice(0, 10),
    };
    // The balance is read after the usage: a call's entry and its charge commit together, so a page
    // that lists a call shows the balance after it (read side by side, the balance could predate the
    // commit that the usage list already saw).
    const usageThenAccount = async () => {
      // The table is summed by billing over every entry of the range; the recent calls are one small page.
      const [recent, usage] = await Promise.all([
        billing.listUsage(accountId, { limit: RECENT_REQUESTS }),
        billing.usageSummary(accountId, range),
      ]);
      return { entries: recent.entries, usage, account: await billing.getAccount(accountId) };
    };
    const [{ entries, usage, account }, keys, video] = await Promise.all([
      usageThenAccount(),
      billing.listKeys(accountId),
      loadVideoView(videoTasks, accountId, logger),
    ]);
    const view = {
      user: session.user,
      csrf: session.csrf,
      once: randomBytes(18).toString('base64url'),
      baseUrl: `${request.protocol}://${request.host}/v1`,
      account,
      keys,
      usage,
      recent: entries,
      video,
    };
    return html(reply, status, dashboardPage({ ...view, ...extra }));
  }

  void fastify.register(async (web) => {
    web.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES },
      (_req, body, done) => {
        const form: Form = {};
        for (const [k, v] of Object.entries(parseQuery(body as string))) form[k] = Array.isArray(v) ? v[0] : v;
        done(null, form);
      },
    );
    // A browser posted the form: answer a page stating this limit, not the API's JSON about its own.
    // Every other failure goes on to the gateway's error handler (thrown to the parent).
    web.setErrorHandler((err: { code?: unknown }, request, reply) => {
      if (err.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') throw err;
      dropUnreadBody(request, reply);
      return html(
        reply,
        413,
        messagePage('Too large', `This form is larger than ${FORM_LIMIT_BYTES / 1024} KiB. Shorten what you entered.`),
      );
    });
    const formOf = (request: FastifyRequest): Form => (request.body && typeof request.body === 'object' ? (request.body as Form) : {});

    // A form posted from a page of another origin is refused before anything else, whatever tokens it
    // carries. The CSRF tokens cannot tell: a page on a sibling host or another port of this one can
    // set this host's cookies (they ignore ports and may be set for a parent domain), so it can plant
    // the double-submitted token and log a visitor into the planter's account. The browser says where
    // a request came from (Sec-Fetch-Site: every current one); one that does not say relies on the tokens.
    web.addHook('onRequest', async (request, reply) => {
      if (request.method !== 'POST') return;
      const site = request.headers['sec-fetch-site'];
      if (site === undefined || site === 'same-origin' || site === 'none') return;
      return html(reply, 403, messagePage('Refused', 'This form was sent from another site. Open this page on this site and try again.'));
    });

    // Someone opening the gateway's address in a browser lands where a key is had (or signed up for).
    web.get('/', (_request, reply) => redirect(reply, '/dashboard'));

    // Browsers ask for it on every page; a 404 is an error in their console.
    web.get('/favicon.ico', (_request, reply) =>
      reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(FAVICON_SVG),
    );

    web.get('/web.css', (_request, reply) =>
      reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(WEB_CSS),
    );

    web.get('/signup', async (request, reply) => {
      if (await sessions.read(request)) return redirect(reply, '/dashboard');
      return html(
        reply,
        200,
        signupPage({ csrf: anonymousCsrf(request, reply), closed: settings.signup ? undefined : signupRefusal(settings, '')! }),
      );
    });

    web.post('/signup', async (request, reply) => {
      const form = formOf(request);
      const csrf = anonymousCsrf(request, reply);
      if (!csrfMatches(form._csrf, readCookies(request)[CSRF_COOKIE]))
        return html(reply, 403, signupPage({ csrf, error: 'The form expired. Please try again.' }));
      const email = form.email ?? '';
      const refusal = signupRefusal(settings, email);
      if (refusal) return html(reply, 403, signupPage({ csrf, email, error: refusal }));
      if ((await store.hit(`web:signups:${hashed(request.ip)}`, SIGNUP_WINDOW_MS)) > SIGNUPS_PER_ADDRESS)
        return html(
          reply.header('retry-after', String(SIGNUP_WINDOW_MS / 1000)),
          429,
          signupPage({ csrf, email, error: 'Too many sign-ups from your address. Try again in an hour.' }),
        );
      try {
        const user = await billing.registerUser(email, form.password ?? '', settings.creditMicros, settings.tier);
        await sessions.start(request, reply, user);
        return redirect(reply, '/dashboard');
      } catch (err) {
        return html(
          reply,
          err instanceof GatewayError && err.status < 500 ? err.status : 500,
          signupPage({ csrf, email, error: userMessage(err) }),
        );
      }
    });

    web.get('/login', async (request, reply) => {
      if (await sessions.read(request)) return redirect(reply, '/dashboard');
      return html(reply, 200, loginPage({ csrf: anonymousCsrf(request, reply) }));
    });

    web.post('/login', async (request, reply) => {
      const form = formOf(request);
      const csrf = anonymousCsrf(request, reply);
      if (!csrfMatches(form._csrf, readCookies(request)[CSRF_COOKIE]))
        return html(reply, 403, loginPage({ csrf, error: 'The form expired. Please try again.' }));
      const email = form.email ?? '';
      const keys = failureKeys(email, request);
      // Counted before the password is checked: parallel guesses cannot all slip in under the limit.
      const [pairFailures, emailFailures] = await Promise.all([
        store.hit(keys.pair, LOGIN_WINDOW_MS),
        store.hit(keys.email, LOGIN_WINDOW_MS),
      ]);
      if (pairFailures > LOGIN_MAX_FAILURES || emailFailures > LOGIN_MAX_FAILURES_PER_EMAIL)
        return html(
          reply.header('retry-after', String(LOGIN_WINDOW_MS / 1000)),
          429,
          loginPage({ csrf, email, error: 'Too many failed log-ins. Try again in 15 minutes.' }),
        );
      const user = await billing.verifyUser(email, form.password ?? '');
      if (!user) return html(reply, 401, loginPage({ csrf, email, error: 'Wrong email or password.' }));
      await Promise.all([store.del(keys.pair), store.del(keys.email)]);
      await sessions.start(request, reply, user);
      return redirect(reply, '/dashboard');
    });

    /** The routes below need a session and (POST) its CSRF token. */
    const withSession =
      (handler: (request: FastifyRequest<{ Params: { id?: string } }>, reply: FastifyReply, session: Session) => Promise<unknown>) =>
      async (request: FastifyRequest<{ Params: { id?: string } }>, reply: FastifyReply) => {
        const session = await sessions.read(request);
        if (!session)
          return request.method === 'GET'
            ? redirect(reply, '/login')
            : html(reply, 401, messagePage('Logged out', 'Your session has ended. Please log in again.'));
        if (request.method === 'POST' && !csrfMatches(formOf(request)._csrf, session.csrf))
          return html(reply, 403, messagePage('Refused', 'This form is not from your session (missing or wrong CSRF token).'));
        return handler(request, reply, session);
      };

    web.post(
      '/logout',
      withSession(async (request, reply) => {
        await sessions.end(request, reply);
        return redirect(reply, '/login');
      }),
    );

    web.get(
      '/dashboard',
      withSession((request, reply, session) => dashboard(request, reply, session)),
    );
    // Addresses a person may type or keep: the form's own address (after a key was made) among them.
    for (const path of ['/dashboard/', '/dashboard/keys']) web.get(path, (_request, reply) => redirect(reply, '/dashboard'));
    for (const path of ['/login/', '/signup/']) web.get(path, (_request, reply) => redirect(reply, path.slice(0, -1)));

    web.post(
      '/dashboard/keys',
      withSession(async (request, reply, session) => {
        const form = formOf(request);
        // The page shows the new secret once, as the answer to this POST. A reload (or Back, Forward)
        // sends the same form again: its one-time token, seen before, makes no second key.
        if (typeof form._once !== 'string' || !/^[\w-]{16,64}$/.test(form._once))
          return dashboard(request, reply, session, { error: 'The form expired. Please try again.' }, 403);
        if ((await store.hit(`web:key-form:${hashed(session.csrf, form._once)}`, KEY_FORM_TTL_MS)) > 1)
          return redirect(reply, '/dashboard');
        const name = form.name?.trim();
        try {
          const created = await billing.createKey(session.user.account_id, name ? { name } : {});
          return dashboard(request, reply, session, { created });
        } catch (err) {
          return dashboard(request, reply, session, { error: userMessage(err) }, 400);
        }
      }),
    );

    web.post(
      '/dashboard/keys/:id/revoke',
      withSession(async (request, reply, session) => {
        const id = request.params.id ?? '';
        // Only the session's own keys: billing's revoke takes any key id.
        const keys = await billing.listKeys(session.user.account_id);
        if (!keys.some((k) => k.id === id)) return dashboard(request, reply, session, { error: 'No such key on this account.' }, 404);
        await billing.revokeKey(id);
        return redirect(reply, '/dashboard');
      }),
    );
  });
}
