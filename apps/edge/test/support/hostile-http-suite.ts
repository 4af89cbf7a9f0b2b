/**
 * What a hostile or careless client sends, and what it must get back: a 4xx in our shape naming the
 * problem, quickly, with the process answering /health/live throughout (issue: "never a freeze,
 * never a 500"). Slow clients are cut off by the server's timeouts; the deployment under test runs
 * with short ones (HOSTILE_ENV).
 */
import { connect } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Stack } from './stacks';
import { Admin, eventually } from './admin';
import { SimControl } from './sim-control';
import { probeLiveness } from './liveness';
import { metricSum, scrapeMetrics } from '@unigate/testing';
import { json, useStack } from './use-stack';

/** Short server timeouts so slow-client cases finish in seconds; request bodies held at once up to 4 MiB. */
export const HOSTILE_ENV = {
  UNIGATE_REQUEST_TIMEOUT_MS: '2000',
  UNIGATE_HEADERS_TIMEOUT_MS: '1000',
  UNIGATE_IDLE_TIMEOUT_MS: '2500',
  UNIGATE_BODY_MEMORY_MB: '4',
};

interface RawAnswer {
  status: number;
  headers: string;
  body: string;
  /** ms from sending until the server closed the connection (or the answer ended). */
  ms: number;
}

/** Writes `chunks` on a raw socket (the next one after `gapMs`) and reads until the server closes. */
function raw(origin: string, chunks: Array<string | Buffer>, opts: { gapMs?: number; timeoutMs?: number } = {}): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(Number(port), hostname);
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close within ${opts.timeoutMs ?? 10_000} ms; got ${JSON.stringify(data.slice(0, 300))}`));
    }, opts.timeoutMs ?? 10_000);
    socket.setEncoding('latin1');
    socket.on('data', (d) => (data += d));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const [head, ...rest] = data.split('\r\n\r\n');
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
        headers: head,
        body: rest.join('\r\n\r\n'),
        ms: performance.now() - started,
      });
    });
    socket.on('connect', async () => {
      for (const [i, c] of chunks.entries()) {
        if (i > 0 && opts.gapMs) await new Promise((r) => setTimeout(r, opts.gapMs));
        if (!socket.destroyed) socket.write(c);
      }
    });
  });
}

const shapeB = (body: unknown, code?: string) =>
  expect(body).toMatchObject({ error: { message: expect.any(String), type: expect.any(String), ...(code ? { code } : {}) } });

export function hostileHttpSuite(start: () => Promise<Stack>) {
  let stack: Stack;
  let admin: Admin;
  useStack(start, (s) => {
    stack = s;
    admin = new Admin(s);
  });
  const post = (path: string, body: unknown, key = stack.apiKey) =>
    fetch(`${stack.origin}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  /** /health/live answers within `ms` while `work` runs: the event loop was never blocked for long. */
  async function staysLive<T>(work: Promise<T>, ms = 1_000): Promise<T> {
    const { value, slowestMs } = await probeLiveness(stack.origin, () => work);
    expect(slowestMs).toBeLessThan(ms);
    return value;
  }

  describe('bodies too big for their work', () => {
    it('100,000 messages to a messages-format model: 400 naming the cap, with the process live', async () => {
      const messages = Array.from({ length: 100_000 }, () => ({ role: 'user', content: 'hi' }));
      const res = await staysLive(post('/v1/chat/completions', { model: 'sigma-sonnet-4-6', messages }));
      expect(res.status).toBe(400);
      const body = await json(res);
      shapeB(body);
      expect(body.error.message).toMatch(/messages must hold at most 10000 messages/);
    });

    it('10,000 same-role messages are translated in linear time and answered', async () => {
      const messages = Array.from({ length: 10_000 }, (_, i) => ({ role: 'user', content: `m${i}` }));
      const res = await staysLive(post('/v1/chat/completions', { model: 'sigma-sonnet-4-6', messages, max_tokens: 5 }));
      expect(res.status).toBe(200);
    });

    it('speech of the longest input (4,096 characters, minutes of audio) is encoded without freezing the process', async () => {
      const answer = staysLive(
        post('/v1/audio/speech', { model: 'alpha3-tts-flash', input: 'harbour lights '.repeat(273).slice(0, 4096) }).then(async (res) => ({
          status: res.status,
          bytes: (await res.arrayBuffer()).byteLength,
        })),
      );
      const { status, bytes } = await answer;
      expect(status).toBe(200);
      expect(bytes).toBeGreaterThan(100_000);
    });

    // 1,000 vectors of 2,048 floats are 41 MB of JSON numbers; asked for as base64 upstream (what
    // embeddings-cases checks), they pass through as 10.5 MB of strings (docs/embeddings.md measures
    // the event loop: 1.0–1.6 s a request before, 0.12–0.24 s after).
    it('1,000 embeddings of 2,048 dimensions asked for as base64 (the SDK default): written in pieces, every vector whole, unit length', async () => {
      const input = Array.from({ length: 1_000 }, (_, i) => `text ${i}`);
      const res = await post('/v1/embeddings', { model: 'zeta-4-large', input, dimensions: 2048, encoding_format: 'base64' });
      expect(res.status).toBe(200);
      // 11 MB of text is written in pieces (chunked), not in one socket write (~100 ms of the loop).
      expect(res.headers.get('transfer-encoding')).toBe('chunked');
      const { data } = await json(res);
      expect(data).toHaveLength(1_000);
      for (const { embedding } of [data[0], data[999]]) {
        const bytes = Buffer.from(embedding, 'base64');
        expect(bytes).toHaveLength(2048 * 4);
        const vector = Array.from({ length: 2048 }, (_, i) => bytes.readFloatLE(i * 4));
        expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
      }
    });

    // The same as floats (curl's default) are 41 MB of numbers: printed in pieces of ~256 KiB with other
    // requests between them (chunked), not in one go (docs/embeddings.md: 1.0-1.7 s of loop before,
    // 0.1-0.2 s after).
    it('1,000 embeddings of 2,048 dimensions asked for as floats: printed in pieces, every vector whole', async () => {
      const input = Array.from({ length: 1_000 }, (_, i) => `text ${i}`);
      const res = await post('/v1/embeddings', { model: 'zeta-4-large', input, dimensions: 2048 });
      expect(res.status).toBe(200);
      expect(res.headers.get('transfer-encoding')).toBe('chunked');
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const { object, model, data, usage } = await json(res);
      expect([object, model, usage.prompt_tokens > 0]).toEqual(['list', 'zeta-4-large', true]);
      expect(data.map((d: { index: number }) => d.index)).toEqual(input.map((_, i) => i));
      for (const { embedding } of [data[0], data[500], data[999]]) {
        expect(embedding).toHaveLength(2048);
        expect(Math.hypot(...embedding)).toBeCloseTo(1, 5);
      }
    });

    it('JSON nested 5,000 deep in a passed-through field: 400 invalid_json, not a stack overflow', async () => {
      const deep = '['.repeat(5_000) + ']'.repeat(5_000);
      const body = `{"model":"sigma-sonnet-4-6","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":{"x":${deep}}}}]}`;
      const res = await post('/v1/chat/completions', body);
      expect(res.status).toBe(400);
      const answer = await json(res);
      shapeB(answer, 'invalid_json');
      expect(answer.error.message).toMatch(/deeper than 128 levels/);
    });

    // Eight 30 MB bodies at once took a process with the chart's heap limit past it (a crash).
    it('large bodies past what the process holds at once (4 MiB here): 429 for a key holding half, 503 for another, small ones served, and all served once the first is answered', async () => {
      const MiB = 1024 * 1024;
      const holder = await admin.fundedKey(100);
      const other = await admin.fundedKey(100);
      const prompt = (mib: number) => ({
        model: 'omega-k3',
        max_tokens: 1,
        messages: [{ role: 'user', content: 'word '.repeat((mib * MiB) / 5) }],
      });
      await new SimControl(stack).fault({ match: { model: 'omega-k3' }, latency_ms: 1_500, count: 1 });
      const held = post('/v1/chat/completions', prompt(3), holder.key);
      const bodyBytes = async () => metricSum(await scrapeMetrics(stack.origin, stack.adminToken), 'unigate_request_body_bytes');
      await eventually(bodyBytes, (bytes) => bytes >= 3 * MiB, 5_000);

      const sameKey = await post('/v1/chat/completions', prompt(1.2), holder.key);
      expect([sameKey.status, sameKey.headers.get('retry-after')]).toEqual([429, '1']);
      expect(await json(sameKey)).toMatchObject({ code: 'Throttling.RateQuota', request_id: expect.any(String) });
      const otherKey = await post('/v1/chat/completions', prompt(1.2), other.key);
      expect([otherKey.status, otherKey.headers.get('retry-after')]).toEqual([503, '1']);
      shapeB(await json(otherKey), 'service_unavailable');
      const small = await post(
        '/v1/chat/completions',
        { model: 'sigma-sonnet-4-6', max_tokens: 1, messages: [{ role: 'user', content: 'hi' }] },
        other.key,
      );
      expect(small.status).toBe(200);

      expect((await held).status).toBe(200);
      await eventually(bodyBytes, (bytes) => bytes === 0, 5_000);
      expect((await post('/v1/chat/completions', prompt(1.2), holder.key)).status).toBe(200);
      expect((await post('/v1/chat/completions', prompt(1.2), other.key)).status).toBe(200);
    });

    // A tool call is its JSON-RPC body and the endpoint request made of it, both in memory: they were
    // counted as two requests of its key, and a lone call past half the key's share was refused 429.
    it("an MCP tool call counts as one request: alone, it is served though its two bodies hold more than the key's half (2 MiB here), and both count until it is answered", async () => {
      const MiB = 1024 * 1024;
      const caller = await admin.fundedKey(100);
      const client = new Client({ name: 'unigate-e2e', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${stack.origin}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${caller.key}` } },
        }),
      );
      try {
        await new SimControl(stack).fault({ match: { model: 'omega-k3' }, latency_ms: 1_000, count: 1 });
        const content = 'word '.repeat((1.5 * MiB) / 5);
        const called = client.callTool({
          name: 'chat_completions',
          arguments: { model: 'omega-k3', max_tokens: 1, messages: [{ role: 'user', content }] },
        }) as Promise<CallToolResult>;
        const bodyBytes = async () => metricSum(await scrapeMetrics(stack.origin, stack.adminToken), 'unigate_request_body_bytes');
        await eventually(bodyBytes, (bytes) => bytes >= 3 * MiB, 5_000);
        const result = await called;
        expect([result.isError, (result.structuredContent as { object?: string } | undefined)?.object]).toEqual([
          undefined,
          'chat.completion',
        ]);
        await eventually(bodyBytes, (bytes) => bytes === 0, 5_000);
      } finally {
        await client.close();
      }
    });

    // An upstream (or a proxy before it) that never ends its answer was read until the process ran
    // out of memory: the gateway stops at a quarter of its heap limit, at most 256 MiB here.
    it.each([
      ['a JSON answer', false],
      ["a stream's first event", true],
    ])('%s that never ends: 502 naming the limit, nothing charged, the process answering', async (_case, stream) => {
      const payer = await admin.fundedKey(10);
      const sim = new SimControl(stack);
      await sim.fault({ match: { model: 'omega-k3' }, endless_body: true, count: 1 });
      try {
        const res = await post(
          '/v1/chat/completions',
          { model: 'omega-k3', max_tokens: 5, stream, messages: [{ role: 'user', content: 'hi' }] },
          payer.key,
        );
        expect(res.status).toBe(502);
        const answer = await json(res);
        shapeB(answer);
        expect(answer.error.message).toMatch(/^the upstream's (answer|event) is larger than \d+ MiB, more than the gateway reads$/);
        expect((await fetch(`${stack.origin}/health/live`)).status).toBe(200);
        const account = await eventually(
          () => admin.account(payer.accountId),
          (a) => a.reserved_usd === 0,
          5_000,
        );
        expect(account.balance_usd).toBe(10);
      } finally {
        await sim.clearFaults();
      }
    });

    it('a wrong type is named as such, never as "required"', async () => {
      const res = await post('/v1/chat/completions', {
        model: 'sigma-sonnet-4-6',
        messages: [{ role: 'user', content: 'hi' }],
        max_tokens: 1.5,
      });
      expect(res.status).toBe(400);
      const { error } = await json(res);
      expect(error.param).toBe('max_tokens');
      expect(error.message).not.toMatch(/required/);
    });
  });

  describe('admin and dashboard inputs that used to reach Postgres', () => {
    it.each([
      ['a NUL in an account name', '/accounts', { name: 'a\u0000b' }, /must not contain NUL/],
      ['a credit below a micro-dollar', '/accounts', { name: 'tiny', credit_usd: 1e-7 }, /whole number of micro-dollars/],
    ])('%s: 400', async (_label, path, body, message) => {
      const r = await admin.call<Record<string, { message: string }>>('POST', path, body);
      expect(r.status).toBe(400);
      expect(r.body.error.message).toMatch(message);
    });

    it.each([
      ['rate_limit_rpm', { rate_limit_rpm: 2 ** 31 }],
      ['max_concurrency', { max_concurrency: 2 ** 31 }],
      ['name', { name: 'k\u0000' }],
    ])('a key with an out-of-range %s: 400', async (field, spec) => {
      const account = await admin.createAccount('hostile-keys', 1);
      const r = await admin.call<Record<string, { message: string; param: string }>>('POST', `/accounts/${account.id}/keys`, spec);
      expect(r.status).toBe(400);
      expect(r.body.error.param).toBe(field);
    });

    it.each([
      ['an empty models list (it would have allowed every model)', { models: [] }, 'models', /leave it out to allow every model/],
      ['a model the catalogue does not know', { models: ['omega-k3', 'omega-k9'] }, 'models[1]', /unknown model "omega-k9"/],
    ])('a key with %s: 400', async (_label, spec, param, message) => {
      const account = await admin.createAccount('hostile-key-models', 1);
      const r = await admin.call<Record<string, { message: string; param: string }>>('POST', `/accounts/${account.id}/keys`, spec);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ param, message: expect.stringMatching(message) });
    });

    it('a credit below a micro-dollar: 400, the balance untouched', async () => {
      const account = await admin.createAccount('hostile-credit', 1);
      const r = await admin.call<Record<string, { message: string }>>('POST', `/accounts/${account.id}/credit`, { amount_usd: 1e-7 });
      expect(r.status).toBe(400);
      expect((await admin.account(account.id)).balance_usd).toBe(1);
    });

    it('credits past the balance ceiling (9 billion USD): 400 naming amount_usd, the account still served', async () => {
      // Past 2^53 micro-USD a balance stops being exact: the ninth credit used to answer 500 and leave
      // the account failing every read.
      const account = await admin.createAccount('hostile-ceiling', 1e9);
      for (let i = 0; i < 8; i++) {
        expect((await admin.call('POST', `/accounts/${account.id}/credit`, { amount_usd: 1e9 })).status).toBe(200);
      }
      const r = await admin.call<Record<string, { message: string; param: string }>>('POST', `/accounts/${account.id}/credit`, {
        amount_usd: 0.000001,
        reference: 'past-the-ceiling',
      });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ param: 'amount_usd', message: expect.stringMatching(/maximum of 9000000000 USD/) });
      expect(await admin.account(account.id)).toMatchObject({ balance_usd: 9e9, reserved_usd: 0 });
      const { key } = await admin.createKey(account.id);
      const quota = await fetch(`${stack.origin}/v1/dashboard/billing/subscription`, { headers: { authorization: `Bearer ${key}` } });
      expect(quota.status).toBe(200);
    });

    it('a dashboard date out of range: 400 naming it', async () => {
      const res = await fetch(`${stack.origin}/v1/dashboard/billing/usage?start_date=0000-01-01&end_date=0000-02-01`, {
        headers: { authorization: `Bearer ${stack.apiKey}` },
      });
      expect(res.status).toBe(400);
      expect((await json(res)).error.param).toBe('end_date');
    });
  });

  describe('HTTP-level failures answer in our shape', () => {
    it('malformed HTTP: 400 Shape B', async () => {
      const a = await raw(stack.origin, ['GET /health/live HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n']);
      expect(a.status).toBe(400);
      shapeB(JSON.parse(a.body), 'invalid_http');
    });

    it('headers over the limit: 431 Shape B', async () => {
      const a = await raw(stack.origin, [`GET /health/live HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`]);
      expect(a.status).toBe(431);
      shapeB(JSON.parse(a.body), 'request_header_fields_too_large');
    });

    it('a path parameter over the limit: 414 Shape B', async () => {
      const res = await fetch(`${stack.origin}/admin/v1/accounts/${'a'.repeat(500)}`, {
        headers: { authorization: `Bearer ${stack.adminToken}` },
      });
      expect(res.status).toBe(414);
      shapeB(await json(res), 'uri_too_long');
    });

    it('a body whose UTF-8 characters are split across TCP writes reaches the upstream intact', async () => {
      const text = 'héllo wörld 🌊 — 日本語';
      const body = Buffer.from(JSON.stringify({ model: 'omega-k3', messages: [{ role: 'user', content: text }], max_tokens: 5 }));
      const wave = body.indexOf(Buffer.from('🌊'));
      const head =
        `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${stack.apiKey}\r\n` +
        `Content-Type: application/json\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n`;
      // Cut inside the four bytes of the emoji and inside 'é', each piece its own write.
      const cuts = [body.indexOf(Buffer.from('é')) + 1, wave + 2, body.length];
      const pieces = cuts.map((end, i) => body.subarray(i === 0 ? 0 : cuts[i - 1], end));
      const a = await raw(stack.origin, [head, ...pieces], { gapMs: 20 });
      expect(a.status).toBe(200);
      const [sent] = await new SimControl(stack).last(1);
      expect(sent.body.messages[0].content).toBe(text);
    });

    it.each([
      ['with a Content-Length', false],
      ['chunked', true],
    ])('a body that is not valid UTF-8 (%s): 400 invalid_json saying so, nothing sent upstream', async (_framing, chunked) => {
      const json = Buffer.from(
        '{"model":"omega-k3","max_tokens":5,"messages":[{"role":"user","content":"hi invalid-utf8 \xff\xfe \xc3"}]}',
        'latin1',
      );
      const head =
        `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${stack.apiKey}\r\nContent-Type: application/json\r\n` +
        `Connection: close\r\n${chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${json.length}`}\r\n\r\n`;
      const body = chunked ? [Buffer.from(`${json.length.toString(16)}\r\n`), json, Buffer.from('\r\n0\r\n\r\n')] : [json];
      const a = await raw(stack.origin, [head, ...body]);
      expect(a.status).toBe(400);
      shapeB(JSON.parse(a.body), 'invalid_json');
      expect(JSON.parse(a.body).error.message).toContain('not valid UTF-8');
      const log = (await (await fetch(`${stack.simUrl}/_sim/requests`)).json()) as { data: Array<{ body: unknown }> };
      expect(log.data.some((r) => JSON.stringify(r.body ?? '').includes('invalid-utf8'))).toBe(false);
    });

    it('a body that starts with a UTF-8 byte order mark is read without it (as vendors’ JSON parsers do)', async () => {
      const text = 'hello with a BOM';
      const bytes = Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from(JSON.stringify({ model: 'omega-k3', max_tokens: 5, messages: [{ role: 'user', content: text }] })),
      ]);
      const res = await fetch(`${stack.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' },
        body: bytes,
      });
      expect(res.status).toBe(200);
      const [sent] = await new SimControl(stack).last(1);
      expect(sent.body.messages[0].content).toBe(text);
      // Only a leading one: a BOM after the first value's start is still a syntax error.
      const late = await fetch(`${stack.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' },
        body: Buffer.concat([Buffer.from(' '), bytes]),
      });
      expect(late.status).toBe(400);
      shapeB(await json(late), 'invalid_json');
    });

    it('a form (multipart) sent to a JSON endpoint: 400 saying the endpoint takes JSON', async () => {
      const form = new FormData();
      form.append('model', 'omega-k3');
      const res = await fetch(`${stack.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.apiKey}` },
        body: form,
      });
      expect(res.status).toBe(400);
      const body = await json(res);
      shapeB(body, 'invalid_json');
      expect(body.error.message).toContain('this endpoint takes a JSON body, and the request is multipart/form-data');
    });

    it('an Expect other than 100-continue: 417 with a body', async () => {
      const a = await raw(stack.origin, ['GET /health/live HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nConnection: close\r\n\r\n']);
      expect(a.status).toBe(417);
      shapeB(JSON.parse(a.body), 'expectation_failed');
    });
  });

  describe('slow clients are cut off', () => {
    it('a body that never arrives in full: 408 once the request timeout passes', async () => {
      const a = await raw(stack.origin, [
        `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${stack.apiKey}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"mod`,
      ]);
      expect(a.status).toBe(408);
      expect(a.ms).toBeLessThan(6_000);
    });

    it('headers dripped a byte at a time: closed by the headers timeout', async () => {
      const head = 'GET /health/live HTTP/1.1\r\nHost: x\r\nX-Slow: abcdefghijklmnopqrstuvwxyz\r\n\r\n';
      const a = await raw(stack.origin, head.split(''), { gapMs: 200, timeoutMs: 15_000 });
      expect(a.status).toBe(408);
      expect(a.ms).toBeLessThan(5_000);
    });

    // The idle timeout is the client's: the gateway waiting on its upstream (bounded by the upstream
    // timeouts) is not the client idling, and cutting it would lose an answer the client waits for.
    it.each([false, true])(
      'but not one waiting for an answer its upstream takes longer than the idle timeout to begin (stream: %s)',
      async (stream) => {
        await new SimControl(stack).fault({ match: { model: 'omega-k3' }, latency_ms: 3_500, count: 1 });
        const started = performance.now();
        const res = await post('/v1/chat/completions', {
          model: 'omega-k3',
          messages: [{ role: 'user', content: 'hi' }],
          max_tokens: 5,
          stream,
        });
        const body = await res.text();
        expect(performance.now() - started).toBeGreaterThanOrEqual(3_500);
        expect(res.status).toBe(200);
        expect(body).toContain(stream ? '[DONE]' : '"chat.completion"');
      },
    );

    it('a connection pipelining more requests than the cap is closed; no more than the cap reach an upstream', async () => {
      // Node starts every pipelined request at once: one connection could open thousands of upstream calls.
      const sim = new SimControl(stack);
      await sim.fault({ match: { model: 'omega-k3' }, latency_ms: 1_500, count: 100 });
      try {
        const marker = `pipelined-${Date.now()}`;
        const body = JSON.stringify({ model: 'omega-k3', messages: [{ role: 'user', content: marker }], max_tokens: 5 });
        const request =
          `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${stack.apiKey}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
        const a = await raw(stack.origin, [request.repeat(40)]);
        expect(a.ms).toBeLessThan(1_500); // closed before the first answer could come
        await new Promise((r) => setTimeout(r, 300));
        const reached = (await sim.last(100)).filter((r) => JSON.stringify(r.body).includes(marker));
        expect(reached.length).toBeLessThanOrEqual(16);
      } finally {
        await sim.clearFaults();
      }
    });

    it('a stream asked with Connection: close ends its connection when it ends', async () => {
      const body = JSON.stringify({ model: 'sigma-sonnet-4-6', messages: [{ role: 'user', content: 'hi' }], stream: true, max_tokens: 5 });
      const a = await raw(stack.origin, [
        `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${stack.apiKey}\r\nContent-Type: application/json\r\n` +
          `Connection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      ]);
      expect(a.status).toBe(200);
      expect(a.body).toContain('[DONE]');
      expect(a.ms).toBeLessThan(5_000);
    });
  });

  describe('metrics', () => {
    it('/metrics needs the metrics token (default: the admin token)', async () => {
      expect((await fetch(`${stack.origin}/metrics`)).status).toBe(401);
      const ok = await fetch(`${stack.origin}/metrics`, { headers: { authorization: `Bearer ${stack.adminToken}` } });
      expect(ok.status).toBe(200);
    });

    it('rejections before a model is resolved never add labels from the request', async () => {
      const names = Array.from({ length: 30 }, (_, i) => `made-up-model-${i}-${Date.now()}`);
      for (const model of names) await post('/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] }, 'sk-wrong');
      expect(await scrapeMetrics(stack.origin, stack.adminToken)).not.toContain('made-up-model');
    });
  });
}
