/**
 * The endpoint call over real gRPC: what the service's port receives is what the edge sent — the
 * caller's tier included (an edge that sends none means paid) — and the answer comes back decoded.
 */
import type { EndpointCall, EndpointPort } from '@unigate/contracts';
import { GrpcEndpointClient, endpointServiceHandlers } from './endpoint-transport';
import { startGrpcServer, type GrpcServer } from './grpc-server';

const received: EndpointCall[] = [];
const port: EndpointPort = {
  call: async (call) => {
    received.push(call);
    return { object: 'list', model: 'm', data: [{ object: 'embedding', index: 0, embedding: [0.5] }], usage: { prompt_tokens: 1, total_tokens: 1 } };
  },
  stream: () => {
    throw new Error('not used');
  },
};
const call = (tier?: 'paid' | 'free'): EndpointCall => ({
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
  body: { model: 'm', input: 'hi' },
  options: {},
});

let server: GrpcServer;
let client: GrpcEndpointClient;

beforeAll(async () => {
  server = await startGrpcServer('127.0.0.1:0', { endpoint: endpointServiceHandlers(port) });
  client = new GrpcEndpointClient(`127.0.0.1:${server.port}`);
});
afterAll(async () => {
  await server?.close(0);
});

test('the tier crosses gRPC; none sent means paid', async () => {
  const answer = await client.call(call('free'));
  expect(answer).toMatchObject({ data: [{ index: 0, embedding: [0.5] }] });
  expect(received[0]).toMatchObject({ endpoint: 'embeddings', account_id: 'acct_1', key_id: 'key_1', tier: 'free', body: { model: 'm', input: 'hi' } });

  await client.call(call());
  expect(received[1].tier).toBe('paid');
});
