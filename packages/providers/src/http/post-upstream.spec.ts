import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { HttpClient, type HttpRequest } from './http-client';
import { postUpstreamJson, sendUpstreamJson } from './post-upstream';
import type { UpstreamErrorPolicy } from './upstream-errors';

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
      if (req.url === '/busy') return reply(429, '{"error":{"message":"slow down","code":"rate_limit"}}');
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
    expect(busy).toMatchObject({ status: 502, retryable: true, message: 'slow down' });
    const bad = await postUpstreamJson(http, { url: `${origin}/bad`, headers: {}, body: '{}' }, policy, answer).catch((e) => e);
    expect(bad).toMatchObject({ status: 400, retryable: false, message: 'bad size' });
    await http.close();
  });
});
