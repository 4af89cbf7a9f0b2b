/**
 * The endpoint call over real gRPC: what the service's port receives is what the edge sent — the
 * caller's tier included (an edge that sends none means paid) — and answers and stream items come
 * back as the JSON text the service wrote, with their SSE event names, unless the edge must read them
 * (an answer it localizes, or long base64 strings that crossed as bytes, not inside the JSON).
 */
import { createLogger } from '../logger';
import { randomBytes } from 'node:crypto';
import * as net from 'node:net';
import type { ServerDuplexStream } from '@grpc/grpc-js';
import { errors, JsonText, type CallMeter, type EndpointCall, type EndpointPort } from '@unigate/contracts';
import type { EndpointCall__Output, EndpointReply, SessionCall__Output, SessionReply } from '@unigate/proto';
import { GrpcEndpointClient, endpointServiceHandlers } from './endpoint-transport';
import { CONNECT_TIMEOUT_MS } from './grpc-client';
import { startGrpcServer, type GrpcServer } from './grpc-server';

/** How the services here are served: the process's default body budget, refusals logged nowhere. */
const SERVED = { logger: createLogger('test', 'silent') };

const received: EndpointCall[] = [];
let embedding: number[] | string = [0.5];
/** What the service meters each call to cost; undefined: no usage recorded. */
let metered: number | undefined;
/** Set while a test plays an upstream that breaks after the stream's items. */
let breaksAfterItems = false;
const port: EndpointPort = {
  call: async (call, _signal, meter) => {
    received.push(call);
    if (meter && metered !== undefined) meter.cost_micros = metered;
    return {
      object: 'list',
      model: 'm',
      data: [{ object: 'embedding', index: 0, embedding }],
      usage: { prompt_tokens: 1, total_tokens: 1 },
    };
  },
  stream: async function* (call, _signal, meter) {
    for (const item of streamed[call.endpoint as keyof typeof streamed]) yield item;
    if (meter && metered !== undefined) meter.cost_micros = metered;
    if (breaksAfterItems) throw errors.upstream(502, 'the upstream stream broke', false);
  },
};
/** What the service streams, per endpoint: messages names its events, chat completions does not. */
const streamed = {
  messages: [{ type: 'ping' }, { type: 'content_block_stop', index: 0 }, { type: 'message_stop' }],
  'chat.completions': [
    {
      id: 'c1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'm',
      choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: null }],
    },
  ],
};
/** Set while a test plays a service of an older version, whose frames carry no event names. */
let withoutEventNames = false;
const call = (tier?: 'paid' | 'free', input = 'hi'): EndpointCall => ({
  endpoint: 'embeddings',
  request_id: 'req_1',
  account_id: 'acct_1',
  key_id: 'key_1',
  ...(tier && { tier }),
  hold_id: null,
  route: {
    model: { id: 'm', family: 'zeta', kind: 'embedding', owned_by: 'zeta', created: 1, prices: { input_per_mtok: 1, output_per_mtok: 0 } },
    channels: [],
  },
  // Asked for as base64: an answer the edge writes as the service wrote it (floats it prints in pieces).
  body: { model: 'm', input, encoding_format: 'base64' },
  options: {},
});

let server: GrpcServer;
let client: GrpcEndpointClient;
/** What crossed the wire, as the gRPC messages. */
const wire: Array<{ call: EndpointCall__Output; reply?: EndpointReply }> = [];

beforeAll(async () => {
  const handlers = endpointServiceHandlers(port, SERVED);
  // The edge calls over a session: what crosses is each session message's call and its answer.
  const Session = (c: ServerDuplexStream<SessionCall__Output, SessionReply>) => {
    c.on('data', (msg: SessionCall__Output) => wire.push({ call: msg.call! }));
    const write = c.write.bind(c) as (reply: SessionReply) => boolean;
    c.write = ((reply: SessionReply) => {
      wire.at(-1)!.reply ??= reply.reply ?? undefined;
      if (withoutEventNames && reply.frame) return write({ ...reply, frame: { ...reply.frame, event: '' } });
      return write(reply);
    }) as typeof c.write;
    handlers.Session(c);
  };
  server = await startGrpcServer('127.0.0.1:0', { endpoint: { ...handlers, Session } });
  client = new GrpcEndpointClient(`127.0.0.1:${server.port}`);
});
afterAll(async () => {
  await server?.close(0);
});

test('the tier crosses gRPC; none sent means paid', async () => {
  await client.call(call('free'));
  expect(received[0]).toMatchObject({
    endpoint: 'embeddings',
    account_id: 'acct_1',
    key_id: 'key_1',
    tier: 'free',
    body: { model: 'm', input: 'hi' },
  });

  await client.call(call());
  expect(received[1].tier).toBe('paid');
});

test('a long base64 request field and answer field cross as bytes and arrive exactly', async () => {
  const input = randomBytes(30_000).toString('base64');
  embedding = Buffer.from(new Float32Array(3_000).map((_, i) => i / 7).buffer).toString('base64');
  const answer = (await client.call(call('paid', input))) as { data: Array<{ embedding: string }> };

  expect(received.at(-1)!.body).toEqual({ model: 'm', input, encoding_format: 'base64' });
  expect(answer.data[0].embedding).toBe(embedding);
  const { call: sent, reply } = wire.at(-1)!;
  expect(sent.body_blobs.map((b) => b.path)).toEqual([['input']]);
  expect(sent.body.length).toBeLessThan(100);
  expect(reply!.blobs!.map((b) => b.path)).toEqual([['data', '0', 'embedding']]);
  expect(Buffer.from(reply!.blobs![0].data as Uint8Array).length).toBe(12_000);
  expect((reply!.body as Buffer).length).toBeLessThan(200);
  embedding = [0.5];
});

/** Every item of `endpoint`'s stream, as the edge gets them. */
async function items(endpoint: string): Promise<unknown[]> {
  const out: unknown[] = [];
  const messages = [{ role: 'user', content: 'hi' }];
  const body = { model: 'm', messages, stream: true, ...(endpoint === 'messages' && { max_tokens: 8 }) };
  for await (const item of client.stream({ ...call(), endpoint, body }, new AbortController().signal)) out.push(item);
  return out;
}

test('an answer reaches the edge as the JSON text the service wrote, unless its endpoint prints it in pieces', async () => {
  const answer = await client.call(call());
  expect(answer).toBeInstanceOf(JsonText);
  expect((answer as JsonText).text).toBe(JSON.stringify(await port.call(call())));
  const floats = { ...call(), body: { model: 'm', input: 'hi' } };
  expect(await client.call(floats)).toEqual(await port.call(floats));
});

test('stream items reach the edge as JSON text with their SSE event names', async () => {
  const messages = await items('messages');
  expect(messages).toEqual(streamed.messages.map((item) => new JsonText(JSON.stringify(item), item.type)));
  // Chat completions names no events.
  expect(await items('chat.completions')).toEqual(streamed['chat.completions'].map((item) => new JsonText(JSON.stringify(item))));
});

test('items of a service that sends no event names (an older version) are decoded, so the edge names them', async () => {
  withoutEventNames = true;
  try {
    expect(await items('messages')).toEqual(streamed.messages);
    // Unnamed events need no name: they stay text.
    expect(await items('chat.completions')).toEqual(streamed['chat.completions'].map((item) => new JsonText(JSON.stringify(item))));
  } finally {
    withoutEventNames = false;
  }
});

test("the call's cost crosses with its answer, and with a stream's end; a call that metered none reports none", async () => {
  const streamed = async (meter: CallMeter) => {
    const body = { model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true };
    // Known once the items have ended, not with any of them.
    const before: Array<number | undefined> = [];
    for await (const item of client.stream({ ...call(), endpoint: 'chat.completions', body }, new AbortController().signal, meter))
      if (item) before.push(meter.cost_micros);
    expect(before).toEqual([undefined]);
    return meter.cost_micros;
  };
  // Above 2^32 micro-USD: an int64 on the wire, exact.
  metered = 12_345_678_901;
  try {
    const meter: CallMeter = { upstream_ms: 0 };
    await client.call(call(), undefined, meter);
    expect(meter.cost_micros).toBe(12_345_678_901);
    expect(await streamed({ upstream_ms: 0 })).toBe(12_345_678_901);
    metered = 0;
    expect(await streamed({ upstream_ms: 0 })).toBe(0);
  } finally {
    metered = undefined;
  }
  const meter: CallMeter = { upstream_ms: 0 };
  await client.call(call(), undefined, meter);
  expect(meter.cost_micros).toBeUndefined();
  expect(await streamed({ upstream_ms: 0 })).toBeUndefined();
});

test('a stream that fails after its usage was recorded brings its cost with the failure; one that recorded none, none', async () => {
  const body = { model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true };
  const broken = async (meter: CallMeter) => {
    const items: unknown[] = [];
    const failure = await (async () => {
      for await (const item of client.stream({ ...call(), endpoint: 'chat.completions', body }, new AbortController().signal, meter))
        items.push(item);
    })().catch((err: unknown) => err);
    expect(items).toHaveLength(1);
    expect(failure).toMatchObject({ status: 502, message: expect.stringContaining('the upstream stream broke') });
    return meter.cost_micros;
  };
  breaksAfterItems = true;
  try {
    metered = 4_321;
    expect(await broken({ upstream_ms: 0 })).toBe(4_321);
    metered = undefined;
    expect(await broken({ upstream_ms: 0 })).toBeUndefined();
  } finally {
    breaksAfterItems = false;
    metered = undefined;
  }
});

test('an answer the edge localizes is decoded and checked', async () => {
  const images = { ...call(), endpoint: 'images.generations', body: { model: 'm', prompt: 'a cat' } };
  const answer = await client.call(images);
  expect(answer).not.toBeInstanceOf(JsonText);
  expect(answer).toMatchObject({ data: [{ index: 0, embedding: [0.5] }] });
});

test('a service whose connection is accepted but never set up (a stopped process) fails calls and streams with a 503, not a hang', async () => {
  // What a stopped process's kernel does: accept the connection, then nothing (no HTTP/2 settings).
  const silent = net.createServer(() => undefined);
  const sockets = new Set<net.Socket>();
  silent.on('connection', (s) => sockets.add(s));
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  const stuck = new GrpcEndpointClient(`127.0.0.1:${(silent.address() as net.AddressInfo).port}`);
  try {
    const started = performance.now();
    const outcomes = await Promise.allSettled([
      stuck.call(call()),
      (async () => {
        for await (const item of stuck.stream({ ...call(), endpoint: 'messages' }, new AbortController().signal)) void item;
      })(),
    ]);
    const ms = performance.now() - started;
    for (const outcome of outcomes)
      expect(outcome).toMatchObject({ status: 'rejected', reason: { status: 503, code: 'service_unavailable' } });
    expect(ms).toBeGreaterThanOrEqual(CONNECT_TIMEOUT_MS - 50);
    expect(ms).toBeLessThan(CONNECT_TIMEOUT_MS + 5_000);
    // The next call goes over a new connection (the stuck one was given up), and is bounded the same way.
    const before = sockets.size;
    await expect(stuck.call(call())).rejects.toMatchObject({ status: 503 });
    expect(sockets.size).toBeGreaterThan(before);
  } finally {
    for (const s of sockets) s.destroy();
    silent.close();
  }
}, 30_000);

test('a service that hangs with a call in flight on an open connection fails it with a 503 once a ping goes unanswered; an idle connection is kept', async () => {
  // A service whose calls take a while (its answers are never needed here).
  const slow: EndpointPort = {
    call: (_call, signal) => new Promise((_, reject) => signal!.addEventListener('abort', () => reject(signal!.reason))),
    stream: async function* () {},
  };
  const service = await startGrpcServer('127.0.0.1:0', {
    endpoint: endpointServiceHandlers(
      {
        ...slow,
        call: (c, s) => ((c.body as { input: string }).input === 'quick' ? port.call(c, s) : slow.call(c, s)),
      },
      SERVED,
    ),
  });
  // Between the edge and the service: a link that can go silent both ways, as a paused process or a
  // partition does, without closing anything.
  let frozen = false;
  const links = new Set<net.Socket>();
  const proxy = net.createServer((inbound) => {
    const outbound = net.connect(service.port, '127.0.0.1');
    for (const s of [inbound, outbound]) links.add(s);
    inbound.on('data', (d) => frozen || outbound.write(d));
    outbound.on('data', (d) => frozen || inbound.write(d));
    const close = () => (inbound.destroy(), outbound.destroy());
    inbound.on('close', close).on('error', close);
    outbound.on('close', close).on('error', close);
  });
  let connections = 0;
  proxy.on('connection', () => connections++);
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const keepalive = { timeMs: 500, timeoutMs: 500 };
  const edge = new GrpcEndpointClient(`127.0.0.1:${(proxy.address() as net.AddressInfo).port}`, { keepalive });
  try {
    // Pings on an idle connection are answered, and the connection stays.
    await edge.call(call(undefined, 'quick'));
    await new Promise((r) => setTimeout(r, 4 * keepalive.timeMs));
    await edge.call(call(undefined, 'quick'));
    expect(connections).toBe(1);

    const pending = edge.call(call(undefined, 'slow'));
    await new Promise((r) => setTimeout(r, 100));
    frozen = true;
    const started = performance.now();
    await expect(pending).rejects.toMatchObject({ status: 503 });
    const ms = performance.now() - started;
    expect(ms).toBeLessThan(keepalive.timeMs + keepalive.timeoutMs + 2_000);
    // Once the link answers again, the next call goes over a new connection.
    frozen = false;
    await expect(edge.call(call(undefined, 'quick'))).resolves.toBeInstanceOf(JsonText);
    expect(connections).toBe(2);
  } finally {
    for (const s of links) s.destroy();
    proxy.close();
    await service.close(0);
  }
}, 30_000);
