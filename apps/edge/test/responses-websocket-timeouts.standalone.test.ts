/**
 * The Responses WebSocket's timeouts, short here:
 * - its lifetime (UNIGATE_WEBSOCKET_MAX_AGE_MS, OpenAI's 60 minutes; 1.5 s): a request sent on an
 *   older connection is refused with `websocket_connection_limit_reached` and the connection closes,
 *   while a response already running finishes; the real Codex reconnects and goes on with the whole
 *   conversation;
 * - the idle timeout (UNIGATE_IDLE_TIMEOUT_MS; 1 s): a connection nobody uses is closed, one whose
 *   response waits longer than that on its upstream is not;
 * - the request timeout (UNIGATE_REQUEST_TIMEOUT_MS; 2 s): a message trickled under the idle timeout
 *   closes the connection once it has taken longer than that;
 * - the request bodies held at once (UNIGATE_BODY_MEMORY_MB; 4 MiB): a message counts from its first
 *   bytes, and one that would pass the limit closes its connection with 1013 (try again later);
 *   the real Codex reconnects and sends it again.
 * Standalone only: the edge serves the socket alike in both deployments.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect as connectTcp } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { metricSum, scrapeMetrics } from '@unigate/testing';
import WebSocket from 'ws';
import { Admin, eventually } from './support/admin';
import { agentText, runCodex } from './support/agent-cli';
import { answerEnding } from './support/responses-events';
import { SimControl } from './support/sim-control';
import { startStandalone, type Stack } from './support/stacks';
import type { Loose } from './support/use-stack';

const MAX_AGE_MS = 1_500;
const IDLE_MS = 1_000;
const REQUEST_MS = 2_000;
const SECRET = 'The secret word is HERON-7.';

let stack: Stack;
let admin: Admin;

beforeAll(async () => {
  stack = await startStandalone({
    UNIGATE_WEBSOCKET_MAX_AGE_MS: String(MAX_AGE_MS),
    UNIGATE_IDLE_TIMEOUT_MS: String(IDLE_MS),
    UNIGATE_REQUEST_TIMEOUT_MS: String(REQUEST_MS),
    UNIGATE_BODY_MEMORY_MB: '4',
  });
  admin = new Admin(stack);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

afterEach(async () => {
  await new SimControl(stack).clearFaults();
});

/** How long one request may take here: the slowest answer waits 2.5 s on the upstream. */
const ANSWER_MS = 15_000;

/** A connection, its requests one at a time, and how it closed. */
async function connect(key: string) {
  const ws = new WebSocket(`${stack.baseURL.replace(/^http/, 'ws')}/responses`, { headers: { authorization: `Bearer ${key}` } });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  /** Sends one response.create: the message that ends its answer (or its refusal). */
  const create = (input: string) =>
    answerEnding<Loose>(
      ws,
      JSON.stringify({ type: 'response.create', model: 'omega-k3', input, store: false, max_output_tokens: 400 }),
      ANSWER_MS,
    );
  return { ws, create, closed };
}

it('finishes a response running when the connection comes of age, then refuses the next request and closes; a new connection answers', async () => {
  const { accountId, key } = await admin.fundedKey(5);
  // The first answer starts after 2 s, so it runs past the 1.5 s lifetime.
  await new SimControl(stack).fault({ latency_ms: 2_000, count: 1 });
  const aged = await connect(key);
  expect(await aged.create('a slow answer')).toMatchObject({ type: 'response.completed', response: { status: 'completed' } });
  expect(await aged.create('one more')).toEqual({
    type: 'error',
    status: 400,
    error: {
      type: 'invalid_request_error',
      code: 'websocket_connection_limit_reached',
      message: expect.stringContaining('1.5-second limit'),
      param: null,
    },
  });
  expect(await aged.closed).toEqual({ code: 1000, reason: 'connection limit reached' });
  // Only the answered request is charged.
  expect(
    await eventually(
      () => admin.usage(accountId),
      (u) => u.length >= 1,
    ),
  ).toHaveLength(1);
  const fresh = await connect(key);
  expect(await fresh.create('and again')).toMatchObject({ type: 'response.completed' });
  fresh.ws.close();
  expect(
    await eventually(
      () => admin.usage(accountId),
      (u) => u.length >= 2,
    ),
  ).toHaveLength(2);
});

it('closes a connection nobody uses after the idle timeout, but not while its response waits longer than that on the upstream', async () => {
  const { key } = await admin.fundedKey(5);
  await new SimControl(stack).fault({ latency_ms: 2_500, count: 1 });
  const quiet = await connect(key);
  const started = performance.now();
  expect(await quiet.create('a slow answer')).toMatchObject({ type: 'response.completed' });
  const answered = performance.now();
  expect(answered - started).toBeGreaterThanOrEqual(2_500);
  expect(await quiet.closed).toEqual({ code: 1000, reason: 'idle' });
  // Closed for idling once the answer was out: about the idle timeout after it, not at the lifetime.
  expect(performance.now() - answered).toBeGreaterThanOrEqual(IDLE_MS - 100);
});

const mask = [1, 2, 3, 4];
/** Masked client frames: a text frame announcing 1 MiB, then one byte at a time. */
const oneFrame = { start: Buffer.from([0x81, 0xff, 0, 0, 0, 0, 0, 0x10, 0, 0, ...mask]), next: () => Buffer.from('a') };
/** A fragmented message: one byte per fragment, each after a ping (which a message's fragments may have between them). */
const fragments = {
  start: Buffer.from([0x01, 0x81, ...mask, 0x61]),
  next: () => Buffer.from([0x89, 0x80, ...mask, 0x00, 0x81, ...mask, 0x61]),
};

it.each([
  ['one frame', oneFrame],
  ['fragments with pings between them', fragments],
])(
  'closes a connection whose message is trickled under the idle timeout (%s) once the request timeout has passed',
  async (_shape, message) => {
    const { key } = await admin.fundedKey(5);
    const { hostname, port } = new URL(stack.origin);
    const socket = connectTcp(Number(port), hostname);
    let received = Buffer.alloc(0);
    socket.on('data', (d: Buffer) => (received = Buffer.concat([received, d])));
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now())));
    socket.write(
      'GET /v1/responses HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer ${key}\r\n\r\n`,
    );
    await eventually(
      async () => received.toString('latin1'),
      (r) => r.includes('\r\n\r\n'),
    );
    expect(received.toString('latin1')).toMatch(/^HTTP\/1\.1 101/);
    const upgraded = received.length;
    // The message's bytes every 300 ms: well under the idle timeout.
    const started = performance.now();
    socket.write(message.start);
    const trickle = setInterval(() => socket.write(message.next()), 300);
    const end = await Promise.race([closed, new Promise<number>((resolve) => setTimeout(() => resolve(0), 6_000))]);
    clearInterval(trickle);
    socket.destroy();
    expect(end).toBeGreaterThan(0);
    expect(end - started).toBeGreaterThanOrEqual(REQUEST_MS - 100);
    // A close frame with 1008 (policy violation), after any pongs, came before the connection closed.
    const frames = received.subarray(upgraded);
    const close = frames.indexOf(0x88);
    expect(close).toBeGreaterThanOrEqual(0);
    expect([...frames.subarray(close + 2, close + 4)]).toEqual([0x03, 0xf0]);
  },
);

it('lets the real Codex 0.169.0 reconnect when its connection comes of age mid-turn, and finish with the whole conversation', async () => {
  const { accountId, key } = await admin.fundedKey(5);
  const work = mkdtempSync(join(tmpdir(), 'unigate-agent-work-'));
  writeFileSync(join(work, 'notes.txt'), `${SECRET}\n`);
  const sockets = async () => metricSum(await scrapeMetrics(stack.origin, stack.adminToken), 'unigate_websocket_connections_total');
  const socketsBefore = await sockets();
  await fetch(`${stack.simUrl}/_sim/requests`, { method: 'DELETE' });
  // The tool call is answered after 2 s: Codex sends the tool's output on a connection past its lifetime.
  await new SimControl(stack).fault({ latency_ms: 2_000, count: 1 });
  const run = await runCodex(stack.baseURL, key, 'Run the command `cat notes.txt` and tell me what it printed.', {
    cwd: work,
    model: 'gamma-2.5-flash',
    provider: 'openai',
  });
  expect(run.code).toBe(0);
  expect(run.events.filter((e) => e.type === 'error' || e.type === 'turn.failed')).toEqual([]);
  expect(agentText(run.events)).toContain(SECRET);
  // Refused on the aged connection, it opened another and sent the conversation whole: the prompt with the tool's output.
  expect((await sockets()) - socketsBefore).toBe(2);
  const upstream = ((await (await fetch(`${stack.simUrl}/_sim/requests`)).json()) as { data: unknown[] }).data.map((r) =>
    JSON.stringify(r),
  );
  expect(upstream).toHaveLength(2);
  expect(upstream[1]).toContain('cat notes.txt');
  expect(upstream[1]).toContain('HERON-7');
  // Two answers charged; the refused request cost nothing.
  expect(
    await eventually(
      () => admin.usage(accountId),
      (u) => u.length >= 2,
    ),
  ).toHaveLength(2);
});

it('counts a message from its first bytes against the request bodies held at once: past them the connection closes 1013, and once they are free the same message is answered', async () => {
  const MiB = 1024 * 1024;
  const holder = await admin.fundedKey(100);
  const { key } = await admin.fundedKey(100);
  const bodyBytes = async () => metricSum(await scrapeMetrics(stack.origin, stack.adminToken), 'unigate_request_body_bytes');
  const large = JSON.stringify({
    type: 'response.create',
    model: 'omega-k3',
    input: 'word '.repeat((2 * MiB) / 5),
    max_output_tokens: 400,
  });
  const small = JSON.stringify({ type: 'response.create', model: 'sigma-sonnet-4-6', input: 'hi', max_output_tokens: 400 });

  // A 3 MiB prompt over HTTP, held while its upstream takes 2.5 s.
  await new SimControl(stack).fault({ match: { model: 'omega-k3' }, latency_ms: 2_500, count: 1 });
  const held = fetch(`${stack.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${holder.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'omega-k3', max_tokens: 1, messages: [{ role: 'user', content: 'word '.repeat((3 * MiB) / 5) }] }),
  });
  await eventually(bodyBytes, (bytes) => bytes >= 3 * MiB, 5_000);

  const refused = await connect(key);
  refused.ws.send(large);
  expect(await refused.closed).toEqual({ code: 1013, reason: 'the gateway holds as many request bodies as it can; retry shortly' });
  const beside = await connect(key);
  expect(await answerEnding<Loose>(beside.ws, small, ANSWER_MS)).toMatchObject({ type: 'response.completed' });

  expect((await held).status).toBe(200);
  await eventually(bodyBytes, (bytes) => bytes === 0, 5_000);
  // A new connection: this one has idled past the idle timeout meanwhile.
  const after = await connect(key);
  expect(await answerEnding<Loose>(after.ws, large, ANSWER_MS)).toMatchObject({ type: 'response.completed' });
  after.ws.close();
  await eventually(bodyBytes, (bytes) => bytes === 0, 5_000);
});

it('lets the real Codex 0.169.0 reconnect after a 1013 refusal and finish its turn once the bodies held are free', async () => {
  const MiB = 1024 * 1024;
  const holder = await admin.fundedKey(100);
  const { accountId, key } = await admin.fundedKey(100);
  const metrics = async () => scrapeMetrics(stack.origin, stack.adminToken);
  const sockets = async () => metricSum(await metrics(), 'unigate_websocket_connections_total');
  const socketsBefore = await sockets();
  await fetch(`${stack.simUrl}/_sim/requests`, { method: 'DELETE' });
  // 3.9 of the 4 MiB held over HTTP until this test lets go of it (its upstream would take 60 s).
  await new SimControl(stack).fault({ match: { model: 'omega-k3' }, latency_ms: 60_000, count: 1 });
  const letGo = new AbortController();
  const held = fetch(`${stack.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${holder.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'omega-k3', max_tokens: 1, messages: [{ role: 'user', content: 'word '.repeat((3.9 * MiB) / 5) }] }),
    signal: letGo.signal,
  }).catch((err: Error) => err.name);
  await eventually(
    async () => metricSum(await metrics(), 'unigate_request_body_bytes'),
    (bytes) => bytes >= 3.8 * MiB,
    5_000,
  );

  // Its first message (instructions and a 100 KB prompt) cannot be held beside them: closed 1013.
  const work = mkdtempSync(join(tmpdir(), 'unigate-agent-work-'));
  const running = runCodex(stack.baseURL, key, `Reply with one word. ${'word '.repeat(20_000)}`, {
    cwd: work,
    model: 'gamma-2.5-flash',
    provider: 'openai',
  });
  // A second connection: it was refused once and came back. Now the memory is free.
  await eventually(sockets, (n) => n - socketsBefore >= 2, 30_000);
  letGo.abort();
  const run = await running;

  expect(run.code).toBe(0);
  expect(run.events.filter((e) => e.type === 'turn.failed')).toEqual([]);
  expect(run.events.some((e) => e.type === 'error' && /^Reconnecting/.test(e.message ?? ''))).toBe(true);
  expect(agentText(run.events)).not.toBe('');
  expect(await held).toBe('AbortError');
  // Only the answered message reached the upstream, and only it is charged.
  const upstream = ((await (await fetch(`${stack.simUrl}/_sim/requests`)).json()) as { data: Array<{ path: string }> }).data;
  expect(upstream.filter((r) => r.path.includes('gamma-2.5-flash'))).toHaveLength(1);
  expect(
    await eventually(
      () => admin.usage(accountId),
      (u) => u.length >= 1,
    ),
  ).toHaveLength(1);
});
