/** Local HTTP servers standing in for targets in the bench's specs: each on a free port of 127.0.0.1. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export function localServers() {
  let servers: http.Server[] = [];
  return {
    /** Starts a server for `handler`; resolves its origin. */
    async listen(handler: http.RequestListener): Promise<string> {
      const s = http.createServer(handler);
      await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
      servers.push(s);
      return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
    },
    /** Closes every server started so far. */
    async closeAll(): Promise<void> {
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
      servers = [];
    },
  };
}

/** A target as the bench's modules take it: where to send, and what to send with it. */
export interface StubTarget {
  name: string;
  origin: string;
  headers: Record<string, string>;
}

export interface ChatStubOptions {
  /** The status of the n-th request (from 0); default 200. */
  status?: (n: number) => number;
  /** Sent as x-unigate-overhead-ms, as a gateway reports its own overhead. */
  overheadMs?: string;
  /** Holds back a JSON answer, or a stream's end (its first event goes out at once). */
  delayMs?: number;
}

/**
 * A chat endpoint on `servers` that pushes `name` onto `arrivals` as each request has arrived whole,
 * and answers it as JSON, or as an SSE stream when the request asks to stream.
 */
export async function chatStub(
  servers: ReturnType<typeof localServers>,
  arrivals: string[],
  name: string,
  opts: ChatStubOptions = {},
): Promise<StubTarget> {
  let n = 0;
  // No timer at all without a delay: a setTimeout(0) would still add a millisecond to each answer.
  const held = () => (opts.delayMs ? new Promise((r) => setTimeout(r, opts.delayMs)) : undefined);
  const origin = await servers.listen((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      arrivals.push(name);
      const status = opts.status?.(n++) ?? 200;
      const overhead = opts.overheadMs !== undefined && { 'x-unigate-overhead-ms': opts.overheadMs };
      if (JSON.parse(body).stream) {
        res.writeHead(status, { 'content-type': 'text/event-stream', ...overhead });
        res.write('data: {"choices":[]}\n\n');
        await held();
        res.end('data: [DONE]\n\n');
      } else {
        await held();
        res.writeHead(status, { 'content-type': 'application/json', ...overhead });
        res.end('{"choices":[]}');
      }
    });
  });
  return { name, origin, headers: {} };
}
