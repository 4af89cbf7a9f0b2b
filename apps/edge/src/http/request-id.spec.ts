import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { createLogger } from '@unigate/platform';
import { registerRequestHooks } from './request-id';

/** A Fastify app with the request hooks, whose access lines are collected. */
function appWithAccessLines() {
  const lines: Array<{ msg: string; route: string; status: number }> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString('utf8')));
      done();
    },
  });
  const app = Fastify();
  registerRequestHooks(app, createLogger('request-id-test', 'info', sink));
  app.get('/v1/thing', async () => ({ ok: true }));
  return { app, access: () => lines.filter((l) => l.msg === 'request') };
}

describe('registerRequestHooks', () => {
  // In-process calls (a WebSocket-mode response.create, an MCP tool call) are injected: the injected
  // response emits `close` after onResponse without being `writableFinished`, and was counted twice.
  it.each([false, true])('writes one access line for an injected request (payloadAsStream %s)', async (payloadAsStream) => {
    const { app, access } = appWithAccessLines();
    const res = await app.inject({ method: 'GET', url: '/v1/thing', payloadAsStream });
    if (payloadAsStream) for await (const _chunk of res.stream()) void _chunk;
    await new Promise((resolve) => setImmediate(resolve));
    expect(access()).toEqual([expect.objectContaining({ route: '/v1/thing', status: 200 })]);
    await app.close();
  });

  it('writes one access line for a request over the network', async () => {
    const { app, access } = appWithAccessLines();
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const res = await fetch(`http://127.0.0.1:${(app.server.address() as { port: number }).port}/v1/thing`);
      expect(res.status).toBe(200);
      await res.text();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(access()).toEqual([expect.objectContaining({ route: '/v1/thing', status: 200 })]);
    } finally {
      await app.close();
    }
  });
});
