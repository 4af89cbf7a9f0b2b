/**
 * Endpoint calls over sessions (endpoint.proto's Session), on real gRPC: calls reuse idle sessions
 * instead of opening a stream each, answers and failures reach the right caller, a caller leaving
 * cancels the service's work, shutdown ends idle sessions at once, and a service without Session
 * (an older version mid-rollout) is called per call.
 */
import type { ServerDuplexStream } from '@grpc/grpc-js';
import { errors, type EndpointCall, type EndpointPort, type JsonText } from '@unigate/contracts';
import type { EndpointServiceHandlers, SessionCall__Output, SessionReply } from '@unigate/proto';
import { GrpcEndpointClient, endpointServiceHandlers } from './endpoint-transport';
import { startGrpcServer, type GrpcServer, type GrpcServerOptions } from './grpc-server';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Request ids whose call the service saw aborted. */
const aborted: string[] = [];
const untilAborted = (call: EndpointCall, signal: AbortSignal) =>
  new Promise<never>((_, reject) =>
    signal.addEventListener('abort', () => {
      aborted.push(call.request_id);
      reject(signal.reason);
    }),
  );

/** Embeddings answer `[input]`; speech streams `input` one-byte chunks. 'fail', 'hang' and 'slow…' do what they say. */
const port: EndpointPort = {
  call: async (call, signal) => {
    const { input } = call.body as { input: string };
    if (input === 'fail') throw errors.invalidRequest('input says fail', 'input');
    if (input === 'hang') await untilAborted(call, signal!);
    if (input.startsWith('slow')) await sleep(Number(input.slice(4)));
    return {
      object: 'list',
      model: 'm',
      data: [{ object: 'embedding', index: 0, embedding: [Number(input.replace('slow', ''))] }],
      usage: { prompt_tokens: 1, total_tokens: 1 },
    };
  },
  stream: async function* (call, signal) {
    const { input } = call.body as { input: string };
    if (input === 'hang') {
      yield new Uint8Array([1]);
      await untilAborted(call, signal);
    }
    for (let i = 0; i < Number(input); i++) yield new Uint8Array([i]);
  },
};

const route = (kind: 'embedding' | 'speech') => ({
  model: { id: 'm', family: 'zeta', kind, owned_by: 'zeta', created: 1, prices: { input_per_mtok: 1, output_per_mtok: 0 } },
  channels: [],
});
let ids = 0;
const embed = (input: string | number): EndpointCall => ({
  endpoint: 'embeddings',
  request_id: `req_${++ids}`,
  account_id: 'acct_1',
  key_id: 'key_1',
  hold_id: null,
  route: route('embedding'),
  body: { model: 'm', input: String(input) },
  options: {},
});
const speak = (input: string | number): EndpointCall => ({ ...embed(input), endpoint: 'audio.speech', route: route('speech') });
/** The number in an embeddings answer, which arrives as the service's JSON text. */
const embedding = (answer: unknown) =>
  (JSON.parse((answer as JsonText).text) as { data: Array<{ embedding: number[] }> }).data[0].embedding[0];
async function frames(client: GrpcEndpointClient, call: EndpointCall): Promise<number[]> {
  const out: number[] = [];
  for await (const chunk of client.stream(call, new AbortController().signal)) out.push(...(chunk as Uint8Array));
  return out;
}

/** A server over `port` that counts the sessions opened, the connections they came on and the per-call RPCs served. */
async function serve(withSessions = true, options: GrpcServerOptions = {}) {
  const counts = { sessions: 0, perCall: 0, peers: new Set<string>() };
  const handlers = endpointServiceHandlers(port);
  const served: Partial<EndpointServiceHandlers> = {
    Call: (c, done) => (counts.perCall++, handlers.Call(c, done)),
    Stream: (c) => (counts.perCall++, handlers.Stream(c)),
  };
  // Wrapped by assignment so the handler keeps what lets the server drain it.
  if (withSessions) {
    const session = handlers.Session;
    served.Session = Object.assign((c: ServerDuplexStream<SessionCall__Output, SessionReply>) => {
      counts.sessions++;
      counts.peers.add(c.getPeer());
      session(c);
    }, session);
  }
  const server = await startGrpcServer('127.0.0.1:0', { endpoint: served as EndpointServiceHandlers }, options);
  return { server, counts, client: new GrpcEndpointClient(`127.0.0.1:${server.port}`) };
}

let main: Awaited<ReturnType<typeof serve>>;
const servers: GrpcServer[] = [];
beforeAll(async () => {
  main = await serve();
  servers.push(main.server);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close(0)));
});

test('calls one after another share one session, and none goes per call', async () => {
  const before = main.counts.sessions;
  for (let i = 1; i <= 5; i++) expect(embedding(await main.client.call(embed(i)))).toBe(i);
  expect(await frames(main.client, speak(3))).toEqual([0, 1, 2]);
  expect(main.counts.sessions - before).toBeLessThanOrEqual(1);
  expect(main.counts.perCall).toBe(0);
});

test('concurrent calls each get their own answer, on as many sessions as ran at once, reused after', async () => {
  const before = main.counts.sessions;
  const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => main.client.call(embed(`slow${20 + i}`))));
  expect(answers.map(embedding)).toEqual([20, 21, 22, 23, 24, 25, 26, 27]);
  const opened = main.counts.sessions - before;
  expect(opened).toBeGreaterThanOrEqual(2);
  expect(opened).toBeLessThanOrEqual(8);

  await Promise.all(Array.from({ length: 8 }, (_, i) => main.client.call(embed(i))));
  expect(main.counts.sessions - before).toBe(opened);
});

test("a service's error reaches the caller as the same GatewayError, and the session stays in use", async () => {
  await main.client.call(embed(1));
  const before = main.counts.sessions;
  await expect(main.client.call(embed('fail'))).rejects.toMatchObject({ status: 400, param: 'input', message: 'input says fail' });
  expect(embedding(await main.client.call(embed(7)))).toBe(7);
  expect(main.counts.sessions).toBe(before);
});

test("a caller that stops reading a stream cancels the service's stream and the session with it", async () => {
  const call = speak('hang');
  for await (const chunk of main.client.stream(call, new AbortController().signal)) {
    expect(chunk).toEqual(new Uint8Array([1]));
    break;
  }
  await waitFor(() => aborted.includes(call.request_id));
  // The cancelled session is not handed out again.
  const before = main.counts.sessions;
  await main.client.call(embed(1));
  expect(await frames(main.client, speak(2))).toEqual([0, 1]);
  expect(main.counts.sessions - before).toBeLessThanOrEqual(1);
});

test("an aborted call aborts the service's call and rejects with the abort's reason", async () => {
  const abort = new AbortController();
  const call = embed('hang');
  const answer = main.client.call(call, abort.signal);
  await sleep(30);
  abort.abort(new Error('client gone'));
  await expect(answer).rejects.toThrow('client gone');
  await waitFor(() => aborted.includes(call.request_id));
  expect(embedding(await main.client.call(embed(3)))).toBe(3);
});

test('a session past its age is closed, not reused, even when it waited in the pool', async () => {
  const { server, counts } = await serve();
  servers.push(server);
  const aging = new GrpcEndpointClient(`127.0.0.1:${server.port}`, { maxAgeMs: 100 });
  await aging.call(embed(1));
  await aging.call(embed(2));
  expect(counts.sessions).toBe(1);
  await sleep(150);
  expect(embedding(await aging.call(embed(3)))).toBe(3);
  expect(counts.sessions).toBe(2);
});

test('shutdown ends idle sessions at once and lets a running call finish', async () => {
  const { server, client } = await serve();
  const idler = new GrpcEndpointClient(`127.0.0.1:${server.port}`);
  await Promise.all([client.call(embed(1)), idler.call(embed(2))]);
  const running = client.call(embed('slow200'));
  await sleep(30);
  const started = Date.now();
  await server.close(5_000);
  expect(Date.now() - started).toBeLessThan(2_000);
  expect(embedding(await running)).toBe(200);
});

test('a session the server ended is not used again: the next call fails over a fresh attempt, not a dead session', async () => {
  const { server, client } = await serve();
  await client.call(embed(1));
  await server.close(5_000);
  // The server is gone: a 503, not a hang on the ended session.
  await expect(client.call(embed(2))).rejects.toMatchObject({ status: 503, code: 'service_unavailable' });
});

test('a call that a draining server did not take is sent again on a new session', async () => {
  const handlers = endpointServiceHandlers(port);
  let sessions = 0;
  // The first session ends on its first call unanswered, as one that was draining when the call came.
  const Session = (c: ServerDuplexStream<SessionCall__Output, SessionReply>) =>
    ++sessions === 1 ? c.once('data', () => c.end()) : handlers.Session(c);
  const server = await startGrpcServer('127.0.0.1:0', { endpoint: { ...handlers, Session } });
  servers.push(server);
  const client = new GrpcEndpointClient(`127.0.0.1:${server.port}`);
  expect(embedding(await client.call(embed(6)))).toBe(6);
  expect(sessions).toBe(2);
});

test('a service without Session (an older version) is called per call, streams included', async () => {
  const old = await serve(false);
  servers.push(old.server);
  expect(embedding(await old.client.call(embed(4)))).toBe(4);
  expect(await frames(old.client, speak(2))).toEqual([0, 1]);
  expect(embedding(await old.client.call(embed(5)))).toBe(5);
  expect(old.counts.perCall).toBe(3);
});

async function waitFor(check: () => boolean, ms = 2_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out');
    await sleep(5);
  }
}

test('a connection older than the server allows is replaced (to be placed again), and calls go on without a failure', async () => {
  const { server, counts } = await serve(true, { maxConnectionAgeMs: 300 });
  servers.push(server);
  const client = new GrpcEndpointClient(`127.0.0.1:${server.port}`, { maxAgeMs: 100 });
  const until = Date.now() + 1_200;
  for (let i = 0; Date.now() < until; i++) {
    expect(embedding(await client.call(embed(i)))).toBe(i);
    await sleep(20);
  }
  // Reconnected at least once: sessions arrived from more than one client port.
  expect(counts.peers.size).toBeGreaterThanOrEqual(2);
});
