import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayError } from '@unigate/contracts';
import { readAll, safeFetch, safePost } from './safe-fetch';

describe('safeFetch', () => {
  let server: Server;
  let origin: string;
  let other: Server;
  let otherOrigin: string;
  const listen = async (s: Server) => {
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  };

  beforeAll(async () => {
    other = createServer((_req, res) => res.end('private'));
    otherOrigin = await listen(other);
    server = createServer((req, res) => {
      if (req.url === '/redirect') return res.writeHead(302, { location: `${otherOrigin}/secret` }).end();
      if (req.url === '/big') return res.end(Buffer.alloc(5000));
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2000);
      res.writeHead(200, { 'content-type': 'audio/wav' }).end('RIFF....WAVE');
    });
    origin = await listen(server);
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await new Promise((r) => other.close(r));
  });

  const opts = (trusted: string[] = [origin]) => ({ trustedOrigins: trusted, maxBytes: 1000, timeoutMs: 500 });
  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (e: unknown) => e as GatewayError,
    );

  it('fetches from a configured upstream origin', async () => {
    const r = await safeFetch(`${origin}/audio.wav`, opts());
    expect(r.contentType).toBe('audio/wav');
    expect((await readAll(r.body)).toString()).toBe('RIFF....WAVE');
  });

  it('refuses loopback and private addresses of other origins, by literal or by name', async () => {
    for (const url of [`${otherOrigin}/secret`, 'http://localhost:1/x', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]:1/']) {
      const err = await refusal(safeFetch(url, opts()));
      expect(err).toBeInstanceOf(GatewayError);
      expect(err!.message).toMatch(/not a public address/);
    }
  });

  it('checks every redirect again', async () => {
    const err = await refusal(safeFetch(`${origin}/redirect`, opts()));
    expect(err!.message).toMatch(/refused to fetch .*\/secret: not a public address/);
  });

  it('refuses other schemes, bodies over the cap and answers that take too long', async () => {
    expect((await refusal(safeFetch('file:///etc/passwd', opts())))!.message).toMatch(/only http\(s\)/);
    expect((await refusal(safeFetch(`${origin}/big`, opts())))!.message).toMatch(/larger than 1000 bytes/);
    const slow = await refusal(safeFetch(`${origin}/slow`, opts()));
    expect(slow).toMatchObject({ status: 504 });
  });
});

describe('safePost', () => {
  let hook: Server;
  let port: number;
  const received: string[] = [];
  beforeAll(async () => {
    hook = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push(body);
        if (req.url === '/moved') return res.writeHead(307, { location: 'http://127.0.0.1:1/elsewhere' }).end();
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    port = (hook.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((r) => hook.close(r)));
  const post = (url: string, allowPrivate: boolean) =>
    safePost(url, { headers: { 'content-type': 'application/json' }, body: '{"a":1}', timeoutMs: 2000, allowPrivate });

  it('refuses a name that resolves to a private address at connect time, and an address literal before it', async () => {
    received.length = 0;
    // No check runs before the connection for a name: only the connect-time lookup refuses it.
    await expect(post(`http://localhost:${port}/hook`, false)).rejects.toThrow(/not a public address/);
    await expect(post(`http://127.0.0.1:${port}/hook`, false)).rejects.toThrow(/not a public address/);
    await expect(post('ftp://example.com/hook', false)).rejects.toThrow(/only http\(s\)/);
    expect(received).toEqual([]);
  });

  it('posts to private targets when allowed, and answers a redirect without following it', async () => {
    received.length = 0;
    expect(await post(`http://localhost:${port}/hook`, true)).toBe(204);
    expect(await post(`http://127.0.0.1:${port}/moved`, true)).toBe(307);
    expect(received).toEqual(['{"a":1}', '{"a":1}']);
  });
});
