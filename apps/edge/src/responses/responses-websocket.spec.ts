import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { BodyBudget, createLogger } from '@unigate/platform';
import WebSocket from 'ws';
import { LocalCalls } from '../http/local-calls';
import { registerResponsesWebSocket } from './responses-websocket';

describe('registerResponsesWebSocket', () => {
  // Codex killed while its turn waits on a slow upstream: the in-process request is cut before its
  // headers, and that is the client leaving (docs/reliability.md), not an error of the gateway.
  it('logs no error when the client goes away before its response began', async () => {
    const lines: Array<{ level: string; msg: string }> = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(JSON.parse(chunk.toString('utf8')));
        done();
      },
    });
    const logger = createLogger('responses-websocket-test', 'info', sink);
    const app = Fastify();
    const local = new LocalCalls(app);
    let entered!: () => void;
    const started = new Promise<void>((resolve) => (entered = resolve));
    let left!: () => void;
    const cut = new Promise<void>((resolve) => (left = resolve));
    // An answer whose first byte never comes (an upstream still thinking), until its client leaves.
    app.post('/v1/responses', async (_request, reply) => {
      entered();
      await new Promise<void>((resolve) => reply.raw.once('close', resolve));
      left();
      return reply;
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const close = registerResponsesWebSocket({
      server: app.server,
      auth: { authenticate: async () => ({ key_id: 'k' }) } as never,
      catalog: {} as never,
      local,
      maxPayload: 1024 * 1024,
      idleTimeoutMs: 0,
      messageTimeoutMs: 0,
      maxAgeMs: 0,
      bodyBudget: new BodyBudget(0),
      clientAddress: (req) => req.socket.remoteAddress,
      logger,
    });
    try {
      const ws = new WebSocket(`ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/v1/responses`, {
        headers: { authorization: 'Bearer sk-test' },
      });
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      ws.send(JSON.stringify({ type: 'response.create', model: 'gamma-2.5-flash', input: 'hi' }));
      await started;
      ws.terminate();
      await cut;
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(lines.filter((l) => l.level === 'error' || l.level === 'warn')).toEqual([]);
    } finally {
      close();
      await app.close();
    }
  });
});
