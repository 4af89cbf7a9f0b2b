import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import type { KeyPrincipal } from '@unigate/contracts';
import { metricsRegistry } from '@unigate/platform';
import Fastify, { type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { request } from 'undici';
import { BodyBudget, REFUSAL_TOLD_EVERY_MS, SMALL_BODY_BYTES, registerBodyBudget, type BodyRefusal, type BodyTicket } from './body-budget';
import { registerBodyDecoding } from './body-encoding';
import { replyWithError } from './error-renderer';
import { registerJsonBodyParser } from './json-body';

const MiB = 1024 * 1024;
const ticket = (key: string): BodyTicket => ({ key, bytes: 0 });

describe('BodyBudget', () => {
  it('admits a body while the process and its key stay within their limits, and counts it until released', () => {
    const budget = new BodyBudget(10 * MiB);
    const a = ticket('k1');
    const b = ticket('k2');
    expect(budget.charge(a, 4 * MiB)).toBeUndefined();
    expect(budget.charge(b, 5 * MiB)).toBeUndefined();
    expect([budget.heldBytes(), budget.heldBytes('k1'), budget.heldBytes('k2')]).toEqual([9 * MiB, 4 * MiB, 5 * MiB]);
    budget.release(a);
    budget.release(a);
    expect([budget.heldBytes(), budget.heldBytes('k1'), a.bytes]).toEqual([5 * MiB, 0, 0]);
  });

  it('refuses a key past half the limit with a 429, and the process past the limit with a 503; nothing is counted', () => {
    const budget = new BodyBudget(10 * MiB);
    expect(budget.charge(ticket('k1'), 4 * MiB)).toBeUndefined();
    expect(budget.charge(ticket('k1'), 2 * MiB)).toMatchObject({ status: 429, code: 'Throttling.RateQuota', retryAfter: 1 });
    expect(budget.charge(ticket('k2'), 5 * MiB)).toBeUndefined();
    expect(budget.charge(ticket('k3'), 2 * MiB)).toMatchObject({ status: 503, code: 'service_unavailable', retryAfter: 1 });
    expect(budget.heldBytes()).toBe(9 * MiB);
    expect(budget.heldBytes('k3')).toBe(0);
  });

  it('never refuses the only body held, nor a small one, nor any with no limit', () => {
    const budget = new BodyBudget(1 * MiB);
    const only = ticket('k1');
    expect(budget.charge(only, 20 * MiB)).toBeUndefined();
    expect(budget.charge(only, 5 * MiB)).toBeUndefined();
    expect(budget.charge(ticket('k1'), SMALL_BODY_BYTES)).toBeUndefined();
    expect(budget.charge(ticket('k2'), SMALL_BODY_BYTES + 1)).toMatchObject({ status: 503 });
    const unlimited = new BodyBudget(0);
    expect(unlimited.charge(ticket('k1'), 20 * MiB)).toBeUndefined();
    expect(unlimited.charge(ticket('k1'), 20 * MiB)).toBeUndefined();
  });

  it('counts a body that arrives in parts against its own earlier parts: a small body that grows is refused once large', () => {
    const budget = new BodyBudget(1 * MiB);
    expect(budget.charge(ticket('k2'), 600 * 1024)).toBeUndefined();
    const growing = ticket('k1');
    expect(budget.charge(growing, 60 * 1024)).toBeUndefined();
    expect(budget.charge(growing, 60 * 1024)).toBeUndefined();
    expect(budget.charge(growing, 400 * 1024)).toMatchObject({ status: 503 });
    expect(growing.bytes).toBe(120 * 1024);
  });

  it('a request without a key counts for the process only', () => {
    const budget = new BodyBudget(10 * MiB);
    expect(budget.charge(ticket(''), 5 * MiB)).toBeUndefined();
    expect(budget.charge(ticket(''), 5 * MiB)).toBeUndefined();
    expect(budget.charge(ticket(''), 1 * MiB)).toMatchObject({ status: 503 });
  });

  it('tells of refusals at most once per window for each scope', () => {
    const told: BodyRefusal[] = [];
    const budget = new BodyBudget(2 * MiB, (scope) => told.push(scope));
    budget.charge(ticket('k1'), 1 * MiB);
    for (let i = 0; i < 3; i++) budget.charge(ticket('k1'), 1 * MiB);
    budget.charge(ticket('k2'), 1 * MiB);
    for (let i = 0; i < 3; i++) budget.charge(ticket('k3'), 1 * MiB);
    expect(told).toEqual(['key', 'process']);
    jest.spyOn(performance, 'now').mockReturnValue(performance.now() + REFUSAL_TOLD_EVERY_MS);
    budget.charge(ticket('k3'), 1 * MiB);
    jest.restoreAllMocks();
    expect(told).toEqual(['key', 'process', 'process']);
  });
});

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
      headers: { 'retry-after': '1', connection: 'close' },
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
