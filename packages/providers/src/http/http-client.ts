/**
 * The thin HTTP client under every adapter: one undici Pool per upstream origin, kept alive across
 * requests, with timeouts sized for LLM calls (a non-streamed answer only sends headers once the whole
 * completion is generated, so the headers timeout is long; the body timeout is the idle gap allowed
 * between two body chunks). Requests abort with their AbortSignal.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Pool, type Dispatcher } from 'undici';
import { startUpstreamWait, type UpstreamWait } from './upstream-wait';

export interface HttpClientOptions {
  connectTimeoutMs?: number;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  /** Idle keep-alive sockets are closed after this (or the upstream's own shorter hint). */
  keepAliveTimeoutMs?: number;
  /** Sockets per origin; unlimited when absent (concurrency is bounded by the gateway's limits). */
  connectionsPerOrigin?: number;
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  /** JSON text, or raw bytes (a multipart body). */
  body?: string | Uint8Array;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** Readable and async-iterable; consume or destroy it. */
  body: Dispatcher.ResponseData['body'];
  /** The wait on this upstream, ended by whoever reads the body as far as the answer needs. */
  wait?: UpstreamWait;
}

const DEFAULTS = {
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 600_000,
  bodyTimeoutMs: 300_000,
  keepAliveTimeoutMs: 30_000,
} as const;

export class HttpClient {
  private readonly pools = new Map<string, Pool>();
  private readonly opts: Required<Omit<HttpClientOptions, 'connectionsPerOrigin'>> & { connectionsPerOrigin?: number };

  constructor(opts: HttpClientOptions = {}) {
    this.opts = { ...DEFAULTS, ...opts };
  }

  async request(req: HttpRequest): Promise<HttpResponse> {
    const url = new URL(req.url);
    const wait = startUpstreamWait(req.signal);
    let res: Dispatcher.ResponseData;
    try {
      res = await this.poolFor(url.origin).request({
        method: req.method,
        path: url.pathname + url.search,
        headers: req.headers,
        body: req.body,
        signal: req.signal,
      });
    } catch (err) {
      wait.end();
      throw err;
    }
    return { status: res.statusCode, headers: res.headers as IncomingHttpHeaders, body: res.body, wait };
  }

  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((p) => p.close()));
  }

  private poolFor(origin: string): Pool {
    let pool = this.pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, {
        connections: this.opts.connectionsPerOrigin ?? null,
        connectTimeout: this.opts.connectTimeoutMs,
        headersTimeout: this.opts.headersTimeoutMs,
        bodyTimeout: this.opts.bodyTimeoutMs,
        keepAliveTimeout: this.opts.keepAliveTimeoutMs,
        keepAliveMaxTimeout: 10 * 60_000,
      });
      this.pools.set(origin, pool);
    }
    return pool;
  }
}

let shared: HttpClient | undefined;

/** The process-wide client (connection pools are worth sharing; they hold no per-request state). */
export function sharedHttpClient(): HttpClient {
  shared ??= new HttpClient();
  return shared;
}
