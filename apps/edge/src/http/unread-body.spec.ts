import { connect, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { dropUnreadBody } from './unread-body';

/** A route that refuses before reading its body, as the gateway's refusals do. */
async function refusingServer(lingerMs: number): Promise<{ app: FastifyInstance; port: number }> {
  const app = Fastify();
  app.removeAllContentTypeParsers();
  // Leave the body unread: the route answers from the headers alone.
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  app.addHook('preParsing', (request, reply, _payload, done) => {
    dropUnreadBody(request, reply, lingerMs);
    void reply.code(413).header('content-type', 'application/json').send('{"error":"too large"}');
    done();
  });
  app.post('/', async () => 'not reached');
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as AddressInfo).port };
}

const request = (length: number) => `POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n\r\n`;

function collect(socket: Socket): { text: () => string; closed: Promise<void> } {
  let text = '';
  socket.on('data', (d) => (text += d.toString()));
  socket.on('error', () => undefined);
  return { text: () => text, closed: new Promise((r) => socket.once('close', () => r())) };
}

describe('dropUnreadBody', () => {
  let app: FastifyInstance | undefined;
  afterEach(() => app?.close());

  it('reads and drops the rest of a refused body, so the client reads the answer and keeps its connection', async () => {
    const server = await refusingServer(10_000);
    app = server.app;
    const socket = connect(server.port, '127.0.0.1');
    const got = collect(socket);
    const body = Buffer.alloc(8 * 1024 * 1024, 'x');
    socket.write(request(body.length));
    // The whole body goes out (a reset would fail these writes), then a second request on the same connection.
    await new Promise<void>((resolve, reject) => socket.write(body, (err) => (err ? reject(err) : resolve())));
    socket.write(request(2) + '{}');
    for (let i = 0; i < 100 && (got.text().match(/HTTP\/1\.1 413/g) ?? []).length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect((got.text().match(/HTTP\/1\.1 413/g) ?? []).length).toBe(2);
    expect(socket.destroyed).toBe(false);
    socket.destroy();
  });

  // Its stand-in socket has no destroy(): the linger timer threw from a timer (a crash) in a CI run.
  it('leaves an in-process request (inject) alone', async () => {
    const server = await refusingServer(20);
    app = server.app;
    const endless = new Readable({ read() {} });
    endless.push('{"a":');
    const res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload: endless });
    expect(res.statusCode).toBe(413);
    await new Promise((r) => setTimeout(r, 100));
    endless.destroy();
  });

  it('closes the connection of a client still sending after the linger time', async () => {
    const server = await refusingServer(200);
    app = server.app;
    const socket = connect(server.port, '127.0.0.1');
    const got = collect(socket);
    socket.write(request(1e12));
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const drip = setInterval(() => socket.writable && socket.write(chunk), 10);
    try {
      await got.closed;
    } finally {
      clearInterval(drip);
    }
    expect(got.text()).toMatch(/^HTTP\/1\.1 413/);
  });
});
