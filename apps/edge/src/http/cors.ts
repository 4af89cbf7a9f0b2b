/**
 * CORS, so that a web app can call the API from a browser with a key, as OpenAI's API allows (and
 * the official SDKs do with `dangerouslyAllowBrowser` / `anthropic-dangerous-direct-browser-access`).
 * UNIGATE_CORS_ORIGINS: `*` (default), a comma-separated list of origins, or `off`. Only the API and
 * what browser clients of it read: /v1/, /mcp (and its OAuth discovery), /openapi.json; never the
 * admin API or the dashboard's pages. Credentials are never allowed: the API authenticates by header,
 * so a page of another origin can use only a key it holds itself.
 *
 * A hook of our own rather than @fastify/cors: that plugin's hook costs ~6 µs on every request,
 * a browser's or not (measured with fastify.inject, 2026-12-03), where a request without an `Origin`
 * header (every SDK call from a server) costs this one a property read.
 */
import { isHttpOrigin } from '@unigate/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

export type CorsOrigins = '*' | 'off' | ReadonlySet<string>;

/** Paths whose answers a page of another origin may read. */
const CORS_PATHS = ['/v1/', '/mcp', '/.well-known/oauth-protected-resource', '/openapi.json'];
/** What a browser client reads of an answer besides the CORS-safelisted headers. */
const EXPOSED_HEADERS = 'x-request-id, x-unigate-overhead-ms, retry-after, x-should-retry, www-authenticate';
const ALLOWED_METHODS = 'GET, POST, DELETE, OPTIONS';
/** How long a browser may reuse a preflight's answer (Chromium caps it at 2 hours). */
const PREFLIGHT_MAX_AGE_S = '7200';

/** UNIGATE_CORS_ORIGINS: `*`, `off`, or origins (scheme://host[:port]) separated by commas. */
export const corsOriginsEnv = z
  .string()
  .trim()
  .default('*')
  .transform((value, ctx): CorsOrigins => {
    if (value === '*' || value === '') return '*';
    if (value === 'off') return 'off';
    const origins = value
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean);
    for (const origin of origins) {
      if (!isHttpOrigin(origin)) {
        ctx.addIssue({
          code: 'custom',
          message: `UNIGATE_CORS_ORIGINS: '${origin}' is not an origin (scheme://host[:port], no path); or use * or off`,
        });
        return z.NEVER;
      }
    }
    return new Set(origins);
  });

export function registerCors(fastify: FastifyInstance, origins: CorsOrigins): void {
  if (origins === 'off') return;
  const allowedOrigin = (request: FastifyRequest): string | undefined => {
    const origin = request.headers.origin;
    if (origin === undefined || !CORS_PATHS.some((p) => request.url.startsWith(p))) return undefined;
    if (origins === '*') return '*';
    return origins.has(origin) ? origin : undefined;
  };
  // An answer that depends on the Origin must not be served from a cache to another one.
  const allow = (reply: FastifyReply, origin: string, vary: string) => {
    reply.header('access-control-allow-origin', origin);
    if (origin !== '*') vary = vary ? `Origin, ${vary}` : 'Origin';
    if (vary) reply.header('vary', vary);
  };

  fastify.addHook('onRequest', (request, reply, done) => {
    if (request.headers.origin === undefined || request.method === 'OPTIONS') return done();
    const origin = allowedOrigin(request);
    if (origin) {
      allow(reply, origin, '');
      reply.header('access-control-expose-headers', EXPOSED_HEADERS);
    }
    done();
  });

  // The preflight a browser sends before a request with a key or a JSON body. Any other OPTIONS
  // request is what it was before: not found.
  fastify.options('*', (request, reply) => {
    const origin = allowedOrigin(request);
    if (!origin || typeof request.headers['access-control-request-method'] !== 'string') return reply.callNotFound();
    allow(reply, origin, 'Access-Control-Request-Headers');
    const asked = request.headers['access-control-request-headers'];
    reply
      .code(204)
      .header('access-control-allow-methods', ALLOWED_METHODS)
      .header('access-control-max-age', PREFLIGHT_MAX_AGE_S)
      .header('content-length', '0');
    // The headers it asks for (authorization, content-type, the SDKs' own): the key decides, not them.
    if (typeof asked === 'string' && asked.length > 0) reply.header('access-control-allow-headers', asked);
    return reply.send();
  });
}
