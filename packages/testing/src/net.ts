import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer } from 'node:net';

/**
 * A TCP port on 127.0.0.1 that was free a moment ago, for a process the test starts. Chosen below the
 * kernel's ephemeral range: a port the OS handed out (listen on 0) can be taken by any outgoing
 * connection — a Kafka or Postgres client — before the started process binds it. Ports from this
 * pool are checked by binding and never handed out twice by one test process.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = POOL_LOW + Math.floor(Math.random() * (POOL_HIGH - POOL_LOW));
    if (handedOut.has(port)) continue;
    if (await bindable(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port found in ${POOL_LOW}-${POOL_HIGH}`);
}

// Below Linux's default ephemeral range (32768-60999) and above the well-known services.
const POOL_LOW = 20_000;
const POOL_HIGH = 32_000;
const handedOut = new Set<number>();

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
