import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayError } from '@unigate/contracts';
import { HttpClient } from './http-client';
import { transportError } from './transport-errors';

describe('HttpClient', () => {
  let server: Server;
  let origin: string;
  const ports = new Set<number>();

  beforeAll(async () => {
    server = createServer((req, res) => {
      ports.add(req.socket.remotePort ?? 0);
      if (req.url === '/slow') return; // never answers
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`${req.method} ${req.url}`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('reuses a kept-alive connection per origin', async () => {
    const http = new HttpClient();
    for (let i = 0; i < 3; i++) {
      const res = await http.request({ method: 'GET', url: `${origin}/x?i=${i}`, headers: {} });
      expect(res.status).toBe(200);
      expect(await res.body.text()).toBe(`GET /x?i=${i}`);
      await new Promise((r) => setTimeout(r, 5)); // let the finished request hand its socket back
    }
    expect(ports.size).toBe(1);
    await http.close();
  });

  it('turns a headers timeout into a retryable 504', async () => {
    const http = new HttpClient({ headersTimeoutMs: 50 });
    const err = await http.request({ method: 'GET', url: `${origin}/slow`, headers: {} }).catch((e) => transportError(e, undefined));
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ status: 504, retryable: true });
    await http.close();
  });

  it('aborts with the signal', async () => {
    const http = new HttpClient();
    const abort = new AbortController();
    const pending = http.request({ method: 'GET', url: `${origin}/slow`, headers: {}, signal: abort.signal }).catch((e) => e);
    abort.abort(new Error('stop'));
    const err = await pending;
    expect(transportError(err, abort.signal)).toEqual(new Error('stop'));
    await http.close();
  });
});
