import { request, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import Fastify from 'fastify';
import { keepWhileAnswering, registerAnsweringTimeout } from './answering-timeout';

/** GET `path` on a fresh connection: its status and body, or the error that ended it. */
function get(port: number, path: string): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
      res.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.end();
  });
}

describe('registerAnsweringTimeout', () => {
  /** A server whose connections idle out after 300 ms, with an answer that takes 900 ms to make. */
  async function slowServer(keep: boolean) {
    const app = Fastify({ connectionTimeout: 300 });
    if (keep) registerAnsweringTimeout(app);
    app.get('/slow', async () => {
      await new Promise((r) => setTimeout(r, 900));
      return { made: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { app, port: (app.server.address() as AddressInfo).port };
  }

  it('keeps the connection of an answer the gateway is still making past the idle timeout', async () => {
    const { app, port } = await slowServer(true);
    try {
      expect(await get(port, '/slow')).toEqual({ status: 200, body: '{"made":true}' });
    } finally {
      await app.close();
    }
  });

  it('is what keeps it: without it Node cuts the connection at the idle timeout', async () => {
    const { app, port } = await slowServer(false);
    try {
      expect(await get(port, '/slow')).toEqual({ error: 'ECONNRESET' });
    } finally {
      await app.close();
    }
  });

  // A client that stops reading leaves bytes waiting in the socket; on loopback the kernel takes tens of
  // megabytes first, so the listener is checked with the state such a socket has.
  it('cuts a connection whose client stopped reading, or whose request is still arriving', () => {
    const socket = (writableLength: number) => ({ writableLength, timeout: 300, setTimeout: jest.fn(), destroy: jest.fn() });
    const response = (complete: boolean) => ({ req: { complete } }) as unknown as ServerResponse;
    const cases: Array<[boolean, number, 'setTimeout' | 'destroy']> = [
      [true, 0, 'setTimeout'],
      [true, 65_536, 'destroy'],
      [false, 0, 'destroy'],
    ];
    for (const [complete, waiting, expected] of cases) {
      const s = socket(waiting);
      keepWhileAnswering.call(response(complete), s as unknown as Socket);
      expect(s[expected]).toHaveBeenCalledTimes(1);
      expect(s[expected === 'destroy' ? 'setTimeout' : 'destroy']).not.toHaveBeenCalled();
      if (expected === 'setTimeout') expect(s.setTimeout).toHaveBeenCalledWith(300);
    }
  });
});
