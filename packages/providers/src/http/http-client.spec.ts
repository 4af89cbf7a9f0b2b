import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayError } from '@unigate/contracts';
import { HttpClient } from './http-client';
import { Pool } from './undici-core';
import { gateUpstreamsOf } from './upstream-gate';
import { timeUpstreamsOf } from './upstream-wait';
import { transportError } from './transport-errors';

/** A promise and its settling functions (Node 20 has no Promise.withResolvers). */
function deferred() {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 5));
}

describe('HttpClient', () => {
  let server: Server;
  let origin: string;
  const ports = new Set<number>();
  /** Every request path the server saw, in order. */
  const paths: string[] = [];
  /** Answers of /endless begun, and those whose connection the client closed. */
  const endless = { answering: 0, closed: 0 };

  beforeAll(async () => {
    server = createServer((req, res) => {
      ports.add(req.socket.remotePort ?? 0);
      paths.push(req.url ?? '');
      if (req.url === '/slow') return; // never answers
      if (req.url === '/stalls') {
        // Headers and half the body, then nothing.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"half":');
        return;
      }
      if (req.url === '/cut') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"cut":');
        setTimeout(() => res.destroy(), 10);
        return;
      }
      if (req.url === '/endless') {
        // A body that never ends: a kilobyte at a time for as long as anyone reads.
        res.writeHead(200, { 'content-type': 'application/json' });
        endless.answering += 1;
        const kib = Buffer.alloc(1024, 'a');
        const timer = setInterval(() => res.write(kib), 1);
        res.on('close', () => {
          clearInterval(timer);
          endless.closed += 1;
        });
        return;
      }
      if (req.url === '/pieces') {
        // "é" is two bytes in UTF-8: the first piece ends between them.
        const bytes = Buffer.from('{"text":"café au lait"}');
        const split = bytes.indexOf(0xc3) + 1;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(bytes.subarray(0, split));
        setTimeout(() => res.end(bytes.subarray(split)), 10);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain', 'x-answer': 'yes' });
      res.end(`${req.method} ${req.url}`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  // A streamed answer (undici's request) and one read whole (dispatch into a buffer) behave the same.
  describe.each([
    ['streamed', false],
    ['whole', true],
  ])('%s', (_mode, whole) => {
    it('reuses a kept-alive connection per origin', async () => {
      ports.clear();
      const http = new HttpClient();
      for (let i = 0; i < 3; i++) {
        const res = await http.request({ method: 'GET', url: `${origin}/x?i=${i}`, headers: {}, whole });
        expect(res.status).toBe(200);
        expect(res.headers['x-answer']).toBe('yes');
        expect(await res.body.text()).toBe(`GET /x?i=${i}`);
        await new Promise((r) => setTimeout(r, 5)); // let the finished request hand its socket back
      }
      expect(ports.size).toBe(1);
      await http.close();
    });

    it("tells a client that the upstream refused the connection, not the upstream's address (the log has it)", async () => {
      const closed = createServer();
      await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
      const { port } = closed.address() as AddressInfo;
      await new Promise((r) => closed.close(r));
      const http = new HttpClient();
      const err = (await http
        .request({ method: 'GET', url: `http://127.0.0.1:${port}/x`, headers: {}, whole })
        .catch((e) => transportError(e, undefined))) as GatewayError & { cause?: Error };
      expect(err).toMatchObject({
        status: 502,
        retryable: true,
        message: 'upstream request failed: the upstream refused the connection (ECONNREFUSED)',
      });
      expect(err.message).not.toContain(String(port));
      expect(String(err.cause?.message)).toContain(`127.0.0.1:${port}`);
      expect(JSON.stringify(err)).not.toContain(String(port)); // what crosses gRPC to the edge
      await http.close();
    });

    it('turns a headers timeout into a retryable 504', async () => {
      const http = new HttpClient({ headersTimeoutMs: 50 });
      const err = await http
        .request({ method: 'GET', url: `${origin}/slow`, headers: {}, whole })
        .catch((e) => transportError(e, undefined));
      expect(err).toBeInstanceOf(GatewayError);
      expect(err).toMatchObject({ status: 504, retryable: true });
      await http.close();
    });

    // A failure after the headers surfaces when the body is read, mapped like one before them.
    it.each([
      ['a body that stops arriving is a retryable 504', '/stalls', { bodyTimeoutMs: 50 }, 504],
      ['a connection cut mid-body is a retryable 502', '/cut', {}, 502],
    ])('%s when it is read', async (_case, path, options, status) => {
      const http = new HttpClient(options);
      const res = await http.request({ method: 'GET', url: `${origin}${path}`, headers: {}, whole });
      const err = await res.body.text().catch((e) => transportError(e, undefined));
      expect(err).toMatchObject({ status, retryable: true });
      await http.close();
    });

    it('stops reading an answer past maxAnswerBytes: a 502 that is not retried, the connection closed', async () => {
      const http = new HttpClient({ maxAnswerBytes: 64 * 1024 });
      const closed = endless.closed;
      const res = await http.request({ method: 'GET', url: `${origin}/endless`, headers: {}, whole });
      const err = await res.body.text().catch((e) => transportError(e, undefined));
      expect(err).toBeInstanceOf(GatewayError);
      expect(err).toMatchObject({
        status: 502,
        retryable: false,
        message: "the upstream's answer is larger than 65536 bytes, more than the gateway reads",
      });
      await waitFor(() => endless.closed > closed);
      // The limit is the answer's, not the client's: an answer within it still reads whole.
      expect(await (await http.request({ method: 'GET', url: `${origin}/x`, headers: {}, whole })).body.text()).toBe('GET /x');
      await http.close();
    });

    it('joins a body sent in pieces, a character split between them included', async () => {
      const http = new HttpClient();
      const res = await http.request({ method: 'GET', url: `${origin}/pieces`, headers: {}, whole });
      expect(JSON.parse(await res.body.text())).toEqual({ text: 'café au lait' });
      await http.close();
    });

    it('aborts with the signal before the answer', async () => {
      const http = new HttpClient();
      const abort = new AbortController();
      const pending = http.request({ method: 'GET', url: `${origin}/slow`, headers: {}, signal: abort.signal, whole }).catch((e) => e);
      abort.abort(new Error('stop'));
      const err = await pending;
      expect(transportError(err, abort.signal)).toEqual(new Error('stop'));
      await http.close();
    });

    it('aborts with the signal while the body is read, and with one aborted already', async () => {
      const http = new HttpClient();
      const abort = new AbortController();
      const res = await http.request({ method: 'GET', url: `${origin}/stalls`, headers: {}, signal: abort.signal, whole });
      const reading = res.body.text().catch((e) => e);
      abort.abort(new Error('client left'));
      expect(transportError(await reading, abort.signal)).toEqual(new Error('client left'));
      const before = http.request({ method: 'GET', url: `${origin}/x`, headers: {}, signal: abort.signal, whole }).catch((e) => e);
      expect(transportError(await before, abort.signal)).toEqual(new Error('client left'));
      await http.close();
    });

    it("holds a held call's request until its admission resolves, and never sends one whose admission fails", async () => {
      paths.length = 0;
      const http = new HttpClient();
      const admitted = deferred();
      const admission = new AbortController();
      gateUpstreamsOf(admission.signal, admitted.promise);
      const answer = http.request({ method: 'GET', url: `${origin}/gated?ok`, headers: {}, signal: admission.signal, whole });
      await new Promise((r) => setTimeout(r, 50));
      expect(paths).not.toContain('/gated?ok');
      admitted.resolve();
      expect(await (await answer).body.text()).toBe('GET /gated?ok');

      // Refused: the service's signal aborts and the admission rejects with its reason.
      const refused = new AbortController();
      const refusal = deferred();
      gateUpstreamsOf(refused.signal, refusal.promise);
      const failing = http
        .request({ method: 'GET', url: `${origin}/gated?refused`, headers: {}, signal: refused.signal, whole })
        .catch((e) => e);
      refused.abort(new Error('refused'));
      refusal.reject(refused.signal.reason);
      expect(transportError(await failing, refused.signal)).toEqual(new Error('refused'));
      await new Promise((r) => setTimeout(r, 50));
      expect(paths).not.toContain('/gated?refused');
      await http.close();
    });

    it("counts the request's write as the gateway's time, not as the wait on the upstream", async () => {
      const BUSY_MS = 40;
      const http = new HttpClient();
      await (await http.request({ method: 'GET', url: `${origin}/warm`, headers: {}, whole })).body.text();
      // The dispatch (where undici writes the request on the kept-alive socket) made slow on purpose.
      const dispatch = Pool.prototype.dispatch;
      const spy = jest.spyOn(Pool.prototype, 'dispatch').mockImplementation(function (this: Pool, ...args) {
        const dispatched = dispatch.apply(this, args);
        const until = performance.now() + BUSY_MS;
        while (performance.now() < until);
        return dispatched;
      });
      try {
        const meter = { upstream_ms: 0 };
        const signal = new AbortController().signal;
        timeUpstreamsOf(signal, meter);
        const started = performance.now();
        const res = await http.request({ method: 'POST', url: `${origin}/x`, headers: {}, body: '{}', signal, whole });
        expect(await res.body.text()).toBe('POST /x');
        res.wait?.end();
        const total = performance.now() - started;
        expect(total).toBeGreaterThanOrEqual(BUSY_MS);
        expect(meter.upstream_ms).toBeGreaterThan(0);
        // Started after the write, the wait is at most what is left of the call once the dispatch
        // returned, however slowly the server answers; started before it, it would span the dispatch.
        expect(meter.upstream_ms).toBeLessThanOrEqual(total - BUSY_MS);
      } finally {
        spy.mockRestore();
        await http.close();
      }
    });
  });
});
