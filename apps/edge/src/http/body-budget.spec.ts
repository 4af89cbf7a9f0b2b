import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import type { KeyPrincipal } from '@unigate/contracts';
import { BodyBudget, metricsRegistry, SMALL_BODY_BYTES } from '@unigate/platform';
import Fastify, { type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { request } from 'undici';
import { registerBodyBudget } from './body-budget';
import { registerBodyDecoding } from './body-encoding';
import { replyWithError } from './error-renderer';
import { registerJsonBodyParser } from './json-body';

const MiB = 1024 * 1024;

describe('registerBodyBudget: request bodies on a server', () => {
  const LIMIT = 4 * MiB;
  const BODY_LIMIT = 8 * MiB;
  const logger = { error: jest.fn(), info: () => undefined, debug: () => undefined } as never;
  let app: FastifyInstance;
  let origin: string;
  let budget: BodyBudget;
  /** Answers of /held wait for this. */
  let release: () => void;
  let gate: Promise<void>;
  const reopen = () => (gate = new Promise((resolve) => (release = resolve)));

  beforeAll(async () => {
    budget = new BodyBudget(LIMIT);
    app = Fastify({ bodyLimit: BODY_LIMIT });
    registerJsonBodyParser(app);
    registerBodyDecoding(app, BODY_LIMIT);
    registerBodyBudget(app, budget, BODY_LIMIT);
    app.setErrorHandler((err, req, reply) => replyWithError(err, req, reply, logger));
    const principal = (req: { headers: Record<string, unknown>; principal?: KeyPrincipal }) => {
      if (typeof req.headers['x-key'] === 'string') req.principal = { key_id: req.headers['x-key'] } as KeyPrincipal;
    };
    app.post('/held', { onRequest: async (req) => principal(req) }, async (req) => {
      await gate;
      return { size: JSON.stringify(req.body).length };
    });
    await app.register(async (scope) => {
      await scope.register(multipart);
      scope.post('/form', { onRequest: async (req) => principal(req) }, async (req) => {
        for await (const part of req.parts()) if (part.type === 'file') await part.toBuffer();
        return { ok: true };
      });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  beforeEach(() => void reopen());
  afterEach(async () => {
    release();
    await waitFor(() => budget.heldBytes() === 0);
  });
  afterAll(() => app.close());

  const bodyOf = (bytes: number) => JSON.stringify({ text: 'x'.repeat(bytes - 11) });
  const post = async (path: string, body: string | Buffer, headers: Record<string, string>) => {
    const res = await request(`${origin}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
    return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as Record<string, unknown> };
  };

  it('holds a body until its answer: the same key is then refused 429, the process 503, and both pass once it is answered', async () => {
    const first = post('/held', bodyOf(2 * MiB), { 'x-key': 'k1' });
    await waitFor(() => budget.heldBytes('k1') === 2 * MiB);
    const again = await post('/held', bodyOf(1 * MiB), { 'x-key': 'k1' });
    expect(again).toMatchObject({
      status: 429,
      headers: { 'retry-after': '1' },
      body: { code: 'Throttling.RateQuota' },
    });
    const other = post('/held', bodyOf(1.5 * MiB), { 'x-key': 'k2' });
    await waitFor(() => budget.heldBytes() === 3.5 * MiB);
    const third = await post('/held', bodyOf(1 * MiB), { 'x-key': 'k3' });
    expect(third).toMatchObject({ status: 503, headers: { 'retry-after': '1' }, body: { error: { code: 'service_unavailable' } } });
    // A small body passes whatever is held.
    release();
    expect(await post('/held', bodyOf(1024), { 'x-key': 'k3' })).toMatchObject({ status: 200 });
    expect((await first).status).toBe(200);
    expect((await other).status).toBe(200);
    await waitFor(() => budget.heldBytes() === 0);
    expect(await post('/held', bodyOf(3 * MiB), { 'x-key': 'k1' })).toMatchObject({ status: 200 });
  });

  it('shows what is held on /metrics', async () => {
    // The gauge is the process's: the budgets above still hold what they were not given back.
    const before = await heldMetric();
    const first = post('/held', bodyOf(2 * MiB), { 'x-key': 'k1' });
    await waitFor(() => budget.heldBytes() === 2 * MiB);
    expect((await heldMetric()) - before).toBe(2 * MiB);
    release();
    await first;
    await waitFor(() => budget.heldBytes() === 0);
    expect(await heldMetric()).toBe(before);
  });

  it('a client that leaves mid-upload gives its share back', async () => {
    const socket = connect((app.server.address() as AddressInfo).port, '127.0.0.1');
    socket.write(
      `POST /held HTTP/1.1\r\nhost: x\r\nx-key: k1\r\ncontent-type: application/json\r\ncontent-length: ${3 * MiB}\r\n\r\n{"a":"`,
    );
    await waitFor(() => budget.heldBytes('k1') === 3 * MiB);
    socket.destroy();
    await waitFor(() => budget.heldBytes() === 0);
  });

  it('a chunked body is counted as it arrives and refused once it passes what is left', async () => {
    const first = post('/held', bodyOf(3 * MiB), { 'x-key': 'k1' });
    await waitFor(() => budget.heldBytes() === 3 * MiB);
    const chunked = (bytes: number) =>
      request(`${origin}/held`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-key': 'k2' },
        body: Readable.from([bodyOf(bytes).slice(0, 512 * 1024), bodyOf(bytes).slice(512 * 1024)].map((part) => Buffer.from(part))),
      }).then(async (res) => ({ status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> }));
    expect(await chunked(2 * MiB)).toMatchObject({ status: 503, body: { error: { code: 'service_unavailable' } } });
    expect(budget.heldBytes()).toBe(3 * MiB);
    release();
    expect(await first).toMatchObject({ status: 200 });
    await waitFor(() => budget.heldBytes() === 0);
    expect(await chunked(2 * MiB)).toMatchObject({ status: 200, body: { size: 2 * MiB } });
  });

  it('an encoded body is counted decoded', async () => {
    const first = post('/held', bodyOf(3 * MiB), { 'x-key': 'k1' });
    await waitFor(() => budget.heldBytes() === 3 * MiB);
    const small = gzipSync(bodyOf(2 * MiB));
    expect(small.length).toBeLessThan(SMALL_BODY_BYTES);
    expect(await post('/held', small, { 'x-key': 'k2', 'content-encoding': 'gzip' })).toMatchObject({ status: 503 });
    release();
    await first;
    await waitFor(() => budget.heldBytes() === 0);
    expect(await post('/held', small, { 'x-key': 'k2', 'content-encoding': 'gzip' })).toMatchObject({
      status: 200,
      body: { size: 2 * MiB },
    });
  });

  it('a form sent without a length is counted at the body limit, up front', async () => {
    const form = new FormData();
    form.append('image', new Blob([Buffer.alloc(1024)]), 'a.png');
    const body = new Response(form);
    const stream = body.body!;
    const first = post('/held', bodyOf(1 * MiB), { 'x-key': 'k1' });
    await waitFor(() => budget.heldBytes() === 1 * MiB);
    const res = await request(`${origin}/form`, {
      method: 'POST',
      headers: { 'content-type': body.headers.get('content-type')!, 'x-key': 'k2' },
      body: Readable.fromWeb(stream),
    });
    expect(res.statusCode).toBe(503);
    await res.body.dump();
    release();
    await first;
  });

  it('a body declared over the body limit is a 413, not a budget refusal', async () => {
    const first = post('/held', bodyOf(3 * MiB), { 'x-key': 'k1' });
    await waitFor(() => budget.heldBytes() === 3 * MiB);
    const socket = connect((app.server.address() as AddressInfo).port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.write(
      `POST /held HTTP/1.1\r\nhost: x\r\nx-key: k2\r\ncontent-type: application/json\r\ncontent-length: ${BODY_LIMIT + 1}\r\n\r\n{`,
    );
    await waitFor(() => answer.includes('\r\n\r\n'));
    socket.destroy();
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(budget.heldBytes()).toBe(3 * MiB);
    release();
    await first;
  });
});

async function heldMetric(): Promise<number> {
  const metric = await metricsRegistry.getSingleMetric('unigate_request_body_bytes')!.get();
  return metric.values[0].value;
}

async function waitFor(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
}
