/**
 * The thin HTTP client under every adapter: one undici Pool per upstream origin, kept alive across
 * requests, with timeouts sized for LLM calls (a non-streamed answer only sends headers once the whole
 * completion is generated, so the headers timeout is long; the body timeout is the idle gap allowed
 * between two body chunks). Requests abort with their AbortSignal. A request marked `whole` (its
 * answer is read in one piece) skips undici's response stream (whole-body.ts). No answer read whole
 * (`text()`) grows past `maxAnswerBytes` (answer-limit.ts).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { AnswerBytes, defaultAnswerLimitBytes } from './answer-limit';
import { Pool } from './undici-core';
import { upstreamGate } from './upstream-gate';
import { startUpstreamWait, type UpstreamWait } from './upstream-wait';
import { dispatchWhole, type UpstreamBody } from './whole-body';

export interface HttpClientOptions {
  connectTimeoutMs?: number;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  /** Idle keep-alive sockets are closed after this (or the upstream's own shorter hint). */
  keepAliveTimeoutMs?: number;
  /** Sockets per origin; unlimited when absent (concurrency is bounded by the gateway's limits). */
  connectionsPerOrigin?: number;
  /** The most of one answer read whole (default: answer-limit.ts). */
  maxAnswerBytes?: number;
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  /** JSON text, or raw bytes (a multipart body). */
  body?: string | Uint8Array;
  signal?: AbortSignal;
  /** The answer will be read whole (JSON), not consumed as it arrives: collected without a stream. */
  whole?: boolean;
}

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** Read it whole (`text()`) or as it comes (async iteration, which a `return()` stops). */
  body: UpstreamBody;
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
    this.opts = { ...DEFAULTS, maxAnswerBytes: defaultAnswerLimitBytes(), ...opts };
  }

  async request(req: HttpRequest): Promise<HttpResponse> {
    const url = new URL(req.url);
    const pool = this.poolFor(url.origin);
    const opts = { method: req.method, path: url.pathname + url.search, headers: req.headers, body: req.body };
    // A held call's request is ready by now; it goes out once the call is admitted (upstream-gate.ts).
    const gate = upstreamGate(req.signal);
    if (gate) await gate;
    // On a kept-alive socket undici writes a text or byte body within the dispatch: the wait starts
    // after it, so that write (the gateway's own work, a syscall that also wakes the upstream) counts
    // as the gateway's overhead, not as time spent waiting on the upstream.
    if (req.whole) {
      const sent = dispatchWhole(pool, opts, req.signal, this.opts.maxAnswerBytes);
      const wait = startUpstreamWait(req.signal);
      const whole = await endingOnFailure(sent, wait);
      return { status: whole.status, headers: whole.headers, body: whole.body, wait };
    }
    const sent = pool.request({ ...opts, signal: req.signal });
    const wait = startUpstreamWait(req.signal);
    const res = await endingOnFailure(sent, wait);
    return {
      status: res.statusCode,
      headers: res.headers as IncomingHttpHeaders,
      body: cappedText(res.body, this.opts.maxAnswerBytes),
      wait,
    };
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

/** `sent`'s answer; a failure ends the wait (nobody will read a body). */
async function endingOnFailure<T>(sent: Promise<T>, wait: UpstreamWait): Promise<T> {
  try {
    return await sent;
  } catch (err) {
    wait.end();
    throw err;
  }
}

/**
 * A streamed body whose `text()` stops past `maxBytes` (undici's own reads on without a bound); read
 * as it comes, it is undici's body itself: a stream passes its bytes on rather than holding them.
 */
function cappedText(body: Readable & AsyncIterable<Uint8Array>, maxBytes: number): UpstreamBody {
  return {
    async text() {
      const collected = new AnswerBytes(maxBytes);
      for await (const chunk of body) {
        const tooLarge = collected.add(chunk as Buffer);
        if (tooLarge) {
          body.destroy();
          throw tooLarge;
        }
      }
      return collected.whole().toString('utf8');
    },
    [Symbol.asyncIterator]: () => body[Symbol.asyncIterator](),
  };
}

let shared: HttpClient | undefined;

/** The process-wide client (connection pools are worth sharing; they hold no per-request state). */
export function sharedHttpClient(): HttpClient {
  shared ??= new HttpClient();
  return shared;
}
