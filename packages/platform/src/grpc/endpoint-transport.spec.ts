/**
 * The endpoint call over real gRPC: what the service's port receives is what the edge sent — the
 * caller's tier included (an edge that sends none means paid) — and the answer comes back decoded;
 * long base64 strings cross as bytes, not inside the JSON.
 */
import { randomBytes } from 'node:crypto';
import type { ServerDuplexStream } from '@grpc/grpc-js';
import type { EndpointCall, EndpointPort } from '@unigate/contracts';
import type { EndpointCall__Output, EndpointReply, SessionCall__Output, SessionReply } from '@unigate/proto';
import { GrpcEndpointClient, endpointServiceHandlers } from './endpoint-transport';
import { startGrpcServer, type GrpcServer } from './grpc-server';

const received: EndpointCall[] = [];
let embedding: number[] | string = [0.5];
const port: EndpointPort = {
  call: async (call) => {
    received.push(call);
    return {
      object: 'list',
      model: 'm',
      data: [{ object: 'embedding', index: 0, embedding }],
      usage: { prompt_tokens: 1, total_tokens: 1 },
    };
  },
  stream: () => {
    throw new Error('not used');
  },
};
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
  body: { model: 'm', input },
  options: {},
});

let server: GrpcServer;
let client: GrpcEndpointClient;
/** What crossed the wire, as the gRPC messages. */
const wire: Array<{ call: EndpointCall__Output; reply?: EndpointReply }> = [];

beforeAll(async () => {
  const handlers = endpointServiceHandlers(port);
  // The edge calls over a session: what crosses is each session message's call and its answer.
  const Session = (c: ServerDuplexStream<SessionCall__Output, SessionReply>) => {
    c.on('data', (msg: SessionCall__Output) => wire.push({ call: msg.call! }));
    const write = c.write.bind(c) as (reply: SessionReply) => boolean;
    c.write = ((reply: SessionReply) => {
      wire.at(-1)!.reply ??= reply.reply ?? undefined;
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
  const answer = await client.call(call('free'));
  expect(answer).toMatchObject({ data: [{ index: 0, embedding: [0.5] }] });
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

  expect(received.at(-1)!.body).toEqual({ model: 'm', input });
  expect(answer.data[0].embedding).toBe(embedding);
  const { call: sent, reply } = wire.at(-1)!;
  expect(sent.body_blobs.map((b) => b.path)).toEqual([['input']]);
  expect(sent.body.length).toBeLessThan(100);
  expect(reply!.blobs!.map((b) => b.path)).toEqual([['data', '0', 'embedding']]);
  expect(Buffer.from(reply!.blobs![0].data as Uint8Array).length).toBe(12_000);
  expect((reply!.body as Buffer).length).toBeLessThan(200);
  embedding = [0.5];
});
