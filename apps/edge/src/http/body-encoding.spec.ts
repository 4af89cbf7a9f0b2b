import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { request } from 'undici';
import { registerBodyDecoding } from './body-encoding';
import { replyWithError } from './error-renderer';
import { registerJsonBodyParser } from './json-body';

const LIMIT = 64 * 1024;
const logged: unknown[] = [];
const logger = { error: (...args: unknown[]) => logged.push(args), info: () => undefined } as never;

let app: FastifyInstance;
let origin: string;

beforeAll(async () => {
  app = Fastify({ bodyLimit: LIMIT });
  registerJsonBodyParser(app);
  registerBodyDecoding(app, LIMIT);
  app.setErrorHandler((err, req, reply) => replyWithError(err, req, reply, logger));
  app.post('/echo', async (req) => ({ got: req.body }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(() => app.close());
afterEach(() => expect(logged).toEqual([]));

interface Answer {
  got?: unknown;
  error?: { code: string; type: string; message: string };
}

async function post(body: Buffer | string, headers: Record<string, string>) {
  const res = await request(`${origin}/echo`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as Answer };
}

const message = { model: 'm', messages: [{ role: 'user', content: 'hé'.repeat(500) }] };
const json = JSON.stringify(message);

describe('request bodies with a Content-Encoding', () => {
  it.each([
    ['gzip', gzipSync],
    ['x-gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
    ['GZip', gzipSync],
    ['identity, gzip', gzipSync],
  ] as const)('%s: decoded before it is parsed', async (coding, encode) => {
    const r = await post(encode(Buffer.from(json)), { 'content-encoding': coding });
    expect(r).toMatchObject({ status: 200, body: { got: message } });
  });

  it('identity alone: read as it is', async () => {
    expect(await post(json, { 'content-encoding': 'identity' })).toMatchObject({ status: 200, body: { got: message } });
  });

  it('a body decoding past the limit: 413 once the limit is passed, the connection still answering', async () => {
    // 64 MiB of spaces inside a string compress to ~64 KB; the body stays within the limit encoded.
    const bomb = gzipSync(Buffer.concat([Buffer.from('{"a":"'), Buffer.alloc(64 * 1024 * 1024, 0x20), Buffer.from('"}')]));
    expect(bomb.length).toBeLessThan(LIMIT);
    const r = await post(bomb, { 'content-encoding': 'gzip' });
    expect(r).toMatchObject({ status: 413, body: { error: { code: 'request_too_large' } } });
    expect(await post(json, {})).toMatchObject({ status: 200 });
  });

  it('an encoded body over the limit: 413 before anything is decoded', async () => {
    const noise = Buffer.alloc(LIMIT + 1, 7);
    expect(await post(noise, { 'content-encoding': 'gzip' })).toMatchObject({
      status: 413,
      body: { error: { code: 'request_too_large' } },
    });
  });

  it.each([
    ['not gzip at all', Buffer.from(json), 'gzip'],
    ['gzip cut short', gzipSync(Buffer.from(json)).subarray(0, 40), 'gzip'],
    ['gzip sent as br', gzipSync(Buffer.from(json)), 'br'],
  ])('%s: 400 invalid_content_encoding', async (_name, body, coding) => {
    const r = await post(body, { 'content-encoding': coding });
    expect(r).toMatchObject({ status: 400, body: { error: { code: 'invalid_content_encoding', type: 'invalid_request_error' } } });
    expect(r.body.error?.message).toMatch(/does not decode as its Content-Encoding says/);
  });

  it('decoded but not JSON: 400 invalid_json, as unencoded', async () => {
    expect(await post(gzipSync(Buffer.from('{"a":')), { 'content-encoding': 'gzip' })).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_json' } },
    });
  });

  it.each(['zstd', 'compress', 'gzip, br', 'gzip, gzip'])('%s: 415 listing what is accepted', async (coding) => {
    const r = await post(gzipSync(Buffer.from(json)), { 'content-encoding': coding });
    expect(r).toMatchObject({ status: 415, body: { error: { code: 'unsupported_content_encoding' } } });
    expect(r.headers['accept-encoding']).toBe('gzip, deflate, br');
    expect(r.body.error?.message).toContain(`'${coding}'`);
  });

  it('a multipart body with a Content-Encoding: 415 saying to send it unencoded', async () => {
    const r = await post(gzipSync(Buffer.from('--x\r\n')), {
      'content-encoding': 'gzip',
      'content-type': 'multipart/form-data; boundary=x',
    });
    expect(r).toMatchObject({ status: 415, body: { error: { code: 'unsupported_content_encoding' } } });
    expect(r.body.error?.message).toMatch(/multipart\/form-data body cannot be sent with a Content-Encoding/);
  });
});
