/**
 * Test support (not built): a tiny local HTTP server that replays recorded upstream fixtures and
 * records what it was sent, so adapter specs assert both sides of the wire.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Channel } from '@unigate/contracts';
import { HttpClient } from '../http/http-client';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface Reply {
  status?: number;
  /** JSON body. */
  json?: unknown;
  /** SSE `data:` payloads, written one event at a time, each split across two writes. */
  sse?: string[];
  /** Raw body text (for SSE with `event:` fields or broken payloads). */
  raw?: string;
  contentType?: string;
  /** Destroy the socket after writing instead of ending the response. */
  cut?: boolean;
  /** Never answer (for abort and timeout tests). */
  hang?: boolean;
  /** Write the body but never end the response. */
  keepOpen?: boolean;
}

export interface ReplayServer {
  url: string;
  requests: RecordedRequest[];
  reply(r: Reply): void;
  close(): Promise<void>;
}

export function fixtureChunks(dir: string, name: string): string[] {
  return readFileSync(join(dir, '__fixtures__', `${name}.chunks.txt`), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
}

export function fixtureJson(dir: string, name: string): unknown {
  return JSON.parse(readFileSync(join(dir, '__fixtures__', `${name}.json`), 'utf8'));
}

export async function startReplayServer(): Promise<ReplayServer> {
  let next: Reply = { status: 500, json: { error: { message: 'no reply configured' } } };
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const text = Buffer.concat(parts).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: text ? JSON.parse(text) : undefined });
      void answer(res, next);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply: (r) => {
      next = r;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function answer(res: ServerResponse, r: Reply): Promise<void> {
  if (r.hang) return;
  const status = r.status ?? 200;
  if (r.json !== undefined) {
    res.writeHead(status, { 'content-type': r.contentType ?? 'application/json' });
    res.end(JSON.stringify(r.json));
    return;
  }
  res.writeHead(status, { 'content-type': r.contentType ?? 'text/event-stream' });
  const events = r.sse ? r.sse.map((d) => `data: ${d}\n\n`) : [r.raw ?? ''];
  for (const ev of events) {
    const mid = Math.floor(ev.length / 2);
    await write(res, ev.slice(0, mid));
    await write(res, ev.slice(mid));
  }
  if (r.cut) res.destroy();
  else if (!r.keepOpen) res.end();
}

function write(res: ServerResponse, text: string): Promise<void> {
  return new Promise((resolve) => (text ? res.write(text, () => setImmediate(resolve)) : resolve()));
}

export interface ReplayHarness {
  server: ReplayServer;
  http: HttpClient;
}

/** Registers the jest hooks of a spec that talks to a replay server: one server and HTTP client for the file, an empty request log per test. */
export function useReplayServer(): ReplayHarness {
  const h = {} as ReplayHarness;
  beforeAll(async () => {
    h.server = await startReplayServer();
    h.http = new HttpClient();
  });
  afterAll(async () => {
    await h.http.close();
    await h.server.close();
  });
  beforeEach(() => {
    h.server.requests.length = 0;
  });
  return h;
}

export interface ReplayUpstream<T> extends ReplayHarness {
  /** The adapter or client under test, on `http`. */
  client: T;
  /** A fresh channel to the replay server for every test. */
  channel: Channel;
}

/**
 * Registers the jest hooks of an adapter spec: one replay server and HTTP client for the file, and
 * per test an empty request log and a fresh channel pointing at the server.
 */
export function useReplayUpstream<T>(makeClient: (http: HttpClient) => T, makeChannel: (serverUrl: string) => Channel): ReplayUpstream<T> {
  const replay = useReplayServer();
  const up = {} as ReplayUpstream<T>;
  beforeAll(() => {
    Object.assign(up, { server: replay.server, http: replay.http, client: makeClient(replay.http) });
  });
  beforeEach(() => {
    up.channel = makeChannel(replay.server.url);
  });
  return up;
}
