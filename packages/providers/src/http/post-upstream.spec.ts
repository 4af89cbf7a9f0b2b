import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { HttpClient, type HttpRequest } from './http-client';
import { postUpstreamJson, sendUpstreamJson } from './post-upstream';
import { retryAfterSeconds, type UpstreamErrorPolicy } from './upstream-errors';

const policy: UpstreamErrorPolicy = {
  detail: (json) => {
    const error = (json as { error?: { message?: string; code?: string } } | undefined)?.error;
    return error && { message: error.message, code: error.code };
  },
};
const answer = { schema: z.object({ id: z.string() }), what: 'task' };

describe('sendUpstreamJson / postUpstreamJson', () => {
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const reply = (status: number, body: string) => res.writeHead(status, { 'content-type': 'application/json' }).end(body);
      if (req.url === '/ok') return reply(200, `{"id":"t-1","method":"${req.method}"}`);
      if (req.url === '/not-json') return reply(200, '<html>');
      if (req.url === '/wrong-shape') return reply(200, '{"id":7}');
      if (req.url === '/busy') {
        res.setHeader('retry-after', '7');
        return reply(429, '{"error":{"message":"slow down","code":"rate_limit"}}');
      }
      reply(400, '{"error":{"message":"bad size","code":"invalid_size"}}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('sends the request to be read whole, with its method, and returns the checked answer', async () => {
    const http = new HttpClient();
    const sent: HttpRequest[] = [];
    const request = http.request.bind(http);
    jest.spyOn(http, 'request').mockImplementation((req) => (sent.push(req), request(req)));
    expect(await postUpstreamJson(http, { url: `${origin}/ok`, headers: {}, body: '{}' }, policy, answer)).toEqual({ id: 't-1' });
    expect(await sendUpstreamJson(http, { method: 'GET', url: `${origin}/ok`, headers: {} }, policy, answer)).toEqual({ id: 't-1' });
    expect(sent.map((r) => [r.method, r.whole])).toEqual([
      ['POST', true],
      ['GET', true],
    ]);
    await http.close();
  });

  it('an answer that is not JSON or not the schema is a retryable 502 naming it', async () => {
    const http = new HttpClient();
    for (const path of ['/not-json', '/wrong-shape']) {
      const err = await sendUpstreamJson(http, { method: 'GET', url: `${origin}${path}`, headers: {} }, policy, answer).catch((e) => e);
      expect(err).toMatchObject({ status: 502, retryable: true, message: expect.stringContaining('upstream sent an invalid task') });
    }
    await http.close();
  });

  it("a non-2xx answer is the vendor's error, read by its policy", async () => {
    const http = new HttpClient();
    const busy = await postUpstreamJson(http, { url: `${origin}/busy`, headers: {}, body: '{}' }, policy, answer).catch((e) => e);
    // The upstream limiting the gateway is a temporary unavailability with the upstream's own wait.
    expect(busy).toMatchObject({ status: 503, retryable: true, message: 'slow down', upstreamStatus: 429, retryAfter: 7 });
    const bad = await postUpstreamJson(http, { url: `${origin}/bad`, headers: {}, body: '{}' }, policy, answer).catch((e) => e);
    expect(bad).toMatchObject({ status: 400, retryable: false, message: 'bad size' });
    await http.close();
  });
});

describe('retryAfterSeconds', () => {
  const now = Date.parse('2026-12-01T00:00:00Z');
  it.each([
    [{ 'retry-after-ms': '1500', 'retry-after': '9' }, 2],
    [{ 'retry-after': '12' }, 12],
    [{ 'retry-after': '0.2' }, 1],
    [{ 'retry-after': 'Tue, 01 Dec 2026 00:00:30 GMT' }, 30],
  ])('reads %j as %i s', (headers, seconds) => {
    expect(retryAfterSeconds(headers, now)).toBe(seconds);
  });

  it.each([[{}], [{ 'retry-after': 'soon' }], [{ 'retry-after': '-3' }], [{ 'retry-after': '86400' }], [{ 'retry-after-ms': 'x' }]])(
    'gives nothing for %j (absent, unreadable, negative or past ten minutes)',
    (headers) => {
      expect(retryAfterSeconds(headers, now)).toBeUndefined();
    },
  );
});
