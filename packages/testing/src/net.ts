import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer } from 'node:net';

/**
 * A TCP port on 127.0.0.1 that was free a moment ago, for a process the test starts. Chosen below the
 * kernel's ephemeral range: a port the OS handed out (listen on 0) can be taken by any outgoing
 * connection — a Kafka or Postgres client — before the started process binds it. Ports from this
 * pool are checked by binding and never handed out twice by one test process, and each jest worker
 * draws from its own slice of the pool (portSlice).
 */
export async function freePort(): Promise<number> {
  const { low, high } = portSlice(process.env.JEST_WORKER_ID);
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (handedOut.has(port)) continue;
    if (await bindable(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port found in ${low}-${high}`);
}

// Below Linux's default ephemeral range (32768-60999) and above the well-known services.
const POOL_LOW = 20_000;
const POOL_HIGH = 32_000;
const handedOut = new Set<number>();
const SLICES = 8;

/**
 * The part of the pool a jest worker (`JEST_WORKER_ID`, 1…; anything else takes slice 0) draws from:
 * one of 8 disjoint slices of 1,500 ports. A port handed out stays unbound until the process it is for
 * listens — seconds, for a service starting — and in that window another worker's pick from the whole
 * pool found it free as well: the service that started second failed with EADDRINUSE (fresh-clone CI
 * at 264e473, two workers starting distributed stacks of ~12 ports each).
 */
export function portSlice(workerId: string | undefined): { low: number; high: number } {
  const id = Number(workerId);
  const slice = Number.isInteger(id) && id > 0 ? id % SLICES : 0;
  const size = Math.floor((POOL_HIGH - POOL_LOW) / SLICES);
  return { low: POOL_LOW + slice * size, high: POOL_LOW + (slice + 1) * size };
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** One GET without keep-alive (no sockets left open for jest to complain about): status or error. */
export function httpStatus(url: string, timeoutMs = 2000): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = (url.startsWith('https:') ? httpsRequest : httpRequest)(
      url,
      { method: 'GET', agent: false, headers: { connection: 'close' }, timeout: timeoutMs },
      (response) => {
        response.resume();
        response.once('end', () => resolve(response.statusCode ?? 0));
        response.once('error', reject);
      },
    );
    request.once('timeout', () => request.destroy(new Error(`GET ${url} timed out after ${timeoutMs} ms`)));
    request.once('error', reject);
    request.end();
  });
}

/**
 * Polls `url` until it answers 200, or rejects after timeoutMs with the last status or error seen.
 * `shouldStop` lets a caller end the wait early (e.g. the process being awaited has exited).
 */
export async function waitForHttp(url: string, timeoutMs = 30_000, shouldStop?: () => string | undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no attempt';
  while (Date.now() < deadline) {
    const reason = shouldStop?.();
    if (reason) throw new Error(`stopped waiting for ${url}: ${reason}`);
    try {
      const status = await httpStatus(url, Math.min(2000, Math.max(100, deadline - Date.now())));
      if (status === 200) return;
      last = `HTTP ${status}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms (last: ${last})`);
}
