/**
 * HttpDrain keeps nothing per request on a keep-alive connection: a client that sends thousands of
 * requests over one socket must not make that socket hold a listener (and the finished request and
 * response it closes over) for each of them.
 */
import type { Socket } from 'node:net';
import Fastify from 'fastify';
import { Agent, request } from 'undici';
import { HttpDrain } from './http-drain';

test('many requests on one keep-alive connection leave no listeners behind on its socket', async () => {
  const app = Fastify();
  const drain = new HttpDrain();
  drain.attach(app);
  const sockets = new Set<Socket>();
  app.get('/', async (req) => {
    sockets.add(req.raw.socket);
    return { ok: true };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const agent = new Agent({ connections: 1 });
  try {
    for (let i = 0; i < 300; i++) await (await request(`http://127.0.0.1:${port}/`, { dispatcher: agent })).body.json();
    expect(sockets.size).toBe(1);
    const [socket] = sockets;
    expect(socket.listenerCount('close')).toBeLessThan(5);
    expect(drain.inFlight).toBe(0);
  } finally {
    await agent.close();
    await app.close();
  }
});
