/**
 * Fetching a URL the gateway did not choose (an upstream's result link, a reference image to inline)
 * without becoming a way into the private network: the host must resolve to public addresses only —
 * checked at connect time on the address actually used, so DNS rebinding cannot slip past — every
 * redirect is checked again, and size and time are capped. Origins of configured upstream channels
 * are trusted (the simulator on loopback, a vendor on a private link).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { errors, GatewayError, isPublicAddress } from '@unigate/contracts';
import type { Dispatcher } from 'undici';
import { Agent } from './undici-core';
import { transportError } from './transport-errors';
import { upstreamGate } from './upstream-gate';

const refused = (url: string, why: string) =>
  new GatewayError({
    status: 502,
    code: 'upstream_error',
    type: 'upstream_error',
    message: `refused to fetch ${url}: ${why}`,
    retryable: false,
  });

/** DNS lookup that answers only public addresses (an error otherwise): the guard at connect time. */
function publicLookup(
  hostname: string,
  options: object,
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const list = addresses as LookupAddress[];
    const bad = list.find((a) => !isPublicAddress(a.address));
    if (bad || list.length === 0) {
      const e = new Error(`${hostname} resolves to a non-public address`) as NodeJS.ErrnoException;
      e.code = 'ESSRFBLOCKED';
      return callback(e, []);
    }
    const wantsAll = (options as { all?: boolean }).all === true;
    if (wantsAll) return callback(null, list);
    return callback(null, list[0].address, list[0].family);
  });
}

/** The connect-time guard refused the address (undici reports it directly or as the cause). */
const refusedByGuard = (err: unknown) =>
  (err as { code?: string })?.code === 'ESSRFBLOCKED' || (err as { cause?: { code?: string } })?.cause?.code === 'ESSRFBLOCKED';

let guarded: Agent | undefined;
let trustedAgent: Agent | undefined;
const guardedAgent = () => (guarded ??= new Agent({ connect: { lookup: publicLookup as never } }));
const plainAgent = () => (trustedAgent ??= new Agent());
/** Where a dispatcher sends a request for `url`. */
const target = (url: URL) => ({ origin: url.origin, path: url.pathname + url.search });

export interface SafeFetchOptions {
  /** Origins that are configured upstreams (exempt from the address check). */
  trustedOrigins: readonly string[];
  signal?: AbortSignal;
  /** The body is cut (502) beyond this. */
  maxBytes: number;
  /** The whole fetch, body included. */
  timeoutMs: number;
  maxRedirects?: number;
}

export interface SafeFetchResult {
  contentType: string | undefined;
  /** The body in pieces, each within the size cap; ends with the body. */
  body: AsyncIterable<Uint8Array>;
}

/** GET `url` under the guard; a refused address, scheme, status or size is a 502. */
export async function safeFetch(url: string, opts: SafeFetchOptions): Promise<SafeFetchResult> {
  await upstreamGate(opts.signal);
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  let current = url;
  for (let hop = 0; hop <= (opts.maxRedirects ?? 3); hop++) {
    let parsed: URL;
    try {
      parsed = new URL(current);
    } catch {
      throw refused(current, 'not a URL');
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw refused(current, 'only http(s) URLs are fetched');
    const trusted = opts.trustedOrigins.includes(parsed.origin);
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    if (!trusted && isIP(host) && !isPublicAddress(host)) throw refused(current, 'not a public address');
    let res: Dispatcher.ResponseData;
    try {
      // undici follows no redirect by itself: each hop comes back here to be checked.
      res = await (trusted ? plainAgent() : guardedAgent()).request({ ...target(parsed), method: 'GET', signal });
    } catch (err) {
      if (refusedByGuard(err)) throw refused(current, 'not a public address');
      if (timeout.aborted && !opts.signal?.aborted) throw errors.upstream(504, `fetching ${current} timed out`, true);
      throw transportError(err, opts.signal, `fetching ${current} failed`);
    }
    if (res.statusCode >= 300 && res.statusCode < 400 && res.headers.location) {
      await res.body.dump();
      current = new URL(String(res.headers.location), parsed).toString();
      continue;
    }
    if (res.statusCode !== 200) {
      await res.body.dump();
      throw errors.upstream(502, `fetching ${current} answered HTTP ${res.statusCode}`, res.statusCode >= 500);
    }
    const declared = Number(res.headers['content-length'] ?? NaN);
    if (declared > opts.maxBytes) {
      discard(res.body);
      throw refused(current, `the body is larger than ${opts.maxBytes} bytes`);
    }
    const contentType = typeof res.headers['content-type'] === 'string' ? res.headers['content-type'] : undefined;
    return { contentType, body: capped(res.body, opts.maxBytes, current, timeout, opts.signal) };
  }
  throw refused(url, 'too many redirects');
}

async function* capped(body: Dispatcher.ResponseData['body'], maxBytes: number, url: string, timeout: AbortSignal, signal?: AbortSignal) {
  let total = 0;
  try {
    for await (const chunk of body) {
      total += (chunk as Uint8Array).length;
      if (total > maxBytes) throw refused(url, `the body is larger than ${maxBytes} bytes`);
      yield chunk as Uint8Array;
    }
  } catch (err) {
    if (GatewayError.is(err)) throw err;
    if (timeout.aborted && !signal?.aborted) throw errors.upstream(504, `fetching ${url} timed out`, false);
    throw transportError(err, signal, `fetching ${url} failed`);
  } finally {
    discard(body);
  }
}

export interface SafePostOptions {
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Private and loopback targets allowed (UNIGATE_WEBHOOK_ALLOW_PRIVATE). */
  allowPrivate: boolean;
}

/**
 * POST to a URL the gateway did not choose (a webhook): unless private targets are allowed, the
 * address actually connected to must be public — checked at connect time, so a name that resolved
 * to a public address when checked and to a private one now (DNS rebinding) is still refused.
 * Redirects are not followed. Answers the status; the body is dropped.
 */
export async function safePost(url: string, opts: SafePostOptions): Promise<number> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error(`refused to post to ${url}: only http(s) URLs`);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  // An address literal is connected to without a lookup: checked here instead.
  if (!opts.allowPrivate && isIP(host) && !isPublicAddress(host)) throw new Error(`refused to post to ${url}: not a public address`);
  try {
    const res = await (opts.allowPrivate ? plainAgent() : guardedAgent()).request({
      ...target(parsed),
      method: 'POST',
      headers: opts.headers,
      body: opts.body,
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
    await res.body.dump();
    return res.statusCode;
  } catch (err) {
    if (refusedByGuard(err)) throw new Error(`refused to post to ${url}: not a public address`);
    throw err;
  }
}

/** Stop reading a body: undici reports the abort as an error event, which nobody needs to hear. */
function discard(body: Dispatcher.ResponseData['body']): void {
  if (body.destroyed) return;
  body.on('error', () => undefined);
  body.destroy();
}

/** The whole body of a safe fetch (bounded by its cap). */
export async function readAll(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const p of body) parts.push(p);
  return Buffer.concat(parts);
}
