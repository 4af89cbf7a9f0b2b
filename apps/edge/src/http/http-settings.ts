/**
 * The edge's server limits against slow and abusive clients (docs/reliability.md), from the
 * environment. Every one has a default, so a fresh `npm start` is protected too.
 */
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import { blankAsUnset, bodyMemoryBytesFromEnv } from '@unigate/platform';
import { z } from 'zod';
import { corsOriginsEnv, type CorsOrigins } from './cors';

// A blank variable (`FOO=` in a compose file or a chart) is unset: as 0 it would turn a timeout off.
const ms = (fallback: number) => z.preprocess(blankAsUnset, z.coerce.number().int().nonnegative().default(fallback));

const schema = z.object({
  /** Whole request (headers and body) must arrive within this; 408 otherwise. Uploads are bounded by it too. */
  UNIGATE_REQUEST_TIMEOUT_MS: ms(60_000),
  /** Headers must arrive within this (a slowloris never finishes them); 408 otherwise. */
  UNIGATE_HEADERS_TIMEOUT_MS: ms(10_000),
  /** A connection with no bytes either way for this long is closed; not while an answer is in the making (answering-timeout.ts). */
  UNIGATE_IDLE_TIMEOUT_MS: ms(300_000),
  /**
   * A Responses WebSocket older than this refuses its next request (websocket_connection_limit_reached,
   * OpenAI's 60 minutes) and closes, so clients reconnect and spread over the replicas there are now.
   */
  UNIGATE_WEBSOCKET_MAX_AGE_MS: ms(3_600_000),
  /** An idle keep-alive connection is closed after this; above a typical load balancer's 60 s. */
  UNIGATE_KEEPALIVE_TIMEOUT_MS: ms(65_000),
  /** Connections one process holds at most; beyond, a new connection is closed at once. */
  UNIGATE_MAX_CONNECTIONS: z.coerce.number().int().positive().default(10_000),
  /** /metrics needs this bearer token (default: the admin token), since the edge's port is public. */
  UNIGATE_METRICS_TOKEN: z.string().min(16, 'UNIGATE_METRICS_TOKEN must be at least 16 characters').optional(),
  /**
   * Whose X-Forwarded-For/-Proto/-Host to believe: `true`, `false`, a hop count, or addresses and
   * CIDRs (and the names loopback, linklocal, uniquelocal), comma-separated. The default believes only
   * a proxy on a private address, so a client on the internet cannot pick the address it is throttled by.
   */
  UNIGATE_TRUST_PROXY: z.string().trim().min(1).default('loopback,linklocal,uniquelocal'),
  /** Which pages of other origins may call the API from a browser: `*`, origins, or `off` (cors.ts). */
  UNIGATE_CORS_ORIGINS: corsOriginsEnv,
});

export type TrustProxy = boolean | number | string[];

/** UNIGATE_TRUST_PROXY as Fastify's `trustProxy`. */
export function parseTrustProxy(value: string): TrustProxy {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}

/**
 * The client's address as Fastify's `request.ip` reads it under `trust` (the last address a trusted
 * proxy forwarded, else the socket's), for requests that reach no route of it: a WebSocket handshake.
 */
export function clientAddressReader(trust: TrustProxy): (req: IncomingMessage) => string | undefined {
  if (trust === false) return (req) => req.socket.remoteAddress;
  const trusted =
    trust === true ? () => true : typeof trust === 'number' ? (_: string, hop: number) => hop < trust : proxyAddr.compile(trust);
  return (req) => proxyAddr(req, trusted);
}

export interface HttpSettings {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  idleTimeoutMs: number;
  websocketMaxAgeMs: number;
  keepAliveTimeoutMs: number;
  maxConnections: number;
  /** Request bodies held at once, in bytes (UNIGATE_BODY_MEMORY_MB; 0 for no limit). */
  bodyMemoryBytes: number;
  metricsToken?: string;
  trustProxy: TrustProxy;
  corsOrigins: CorsOrigins;
}

export function httpSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): HttpSettings {
  const e = schema.parse(env);
  return {
    requestTimeoutMs: e.UNIGATE_REQUEST_TIMEOUT_MS,
    // Node refuses a headers timeout above the request timeout.
    headersTimeoutMs:
      e.UNIGATE_REQUEST_TIMEOUT_MS > 0
        ? Math.min(e.UNIGATE_HEADERS_TIMEOUT_MS, e.UNIGATE_REQUEST_TIMEOUT_MS)
        : e.UNIGATE_HEADERS_TIMEOUT_MS,
    idleTimeoutMs: e.UNIGATE_IDLE_TIMEOUT_MS,
    websocketMaxAgeMs: e.UNIGATE_WEBSOCKET_MAX_AGE_MS,
    keepAliveTimeoutMs: e.UNIGATE_KEEPALIVE_TIMEOUT_MS,
    maxConnections: e.UNIGATE_MAX_CONNECTIONS,
    bodyMemoryBytes: bodyMemoryBytesFromEnv(env),
    metricsToken: e.UNIGATE_METRICS_TOKEN,
    trustProxy: parseTrustProxy(e.UNIGATE_TRUST_PROXY),
    corsOrigins: e.UNIGATE_CORS_ORIGINS,
  };
}
