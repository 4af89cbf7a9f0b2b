/**
 * unary() against a real gRPC server whose handler never answers (a hung service): the deadline ends
 * the call with a 503, a signal cancels it, and a bare AbortSignal is still taken as the signal. A
 * method the server does not have (UNIMPLEMENTED) is a 503 too.
 */
import type { CatalogServiceHandlers } from '@unigate/proto';
import { grpcClient, unary } from './grpc-client';
import { startGrpcServer, type GrpcServer } from './grpc-server';

let server: GrpcServer;
let client: ReturnType<typeof grpcClient<'catalog'>>;
let calls = 0;

beforeAll(async () => {
  const hung: Partial<CatalogServiceHandlers> = { Resolve: () => void (calls += 1) };
  server = await startGrpcServer('127.0.0.1:0', { catalog: hung as CatalogServiceHandlers });
  client = grpcClient('catalog', `127.0.0.1:${server.port}`);
});
afterAll(async () => {
  client?.close();
  await server?.close(0);
});

const resolve = (opts?: Parameters<typeof unary>[2]) => unary(client.Resolve.bind(client), { model: 'm' }, opts);

test('a call to a service that never answers fails with a 503 at its deadline', async () => {
  const started = performance.now();
  await expect(resolve({ deadlineMs: 300 })).rejects.toMatchObject({ status: 503, code: 'service_unavailable' });
  expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  expect(calls).toBeGreaterThan(0);
});

test('a signal cancels the call, given in the options or, as before, on its own', async () => {
  for (const asOption of [true, false]) {
    const controller = new AbortController();
    const call = resolve(asOption ? { signal: controller.signal } : controller.signal);
    setTimeout(() => controller.abort(new Error('caller left')), 100);
    await expect(call).rejects.toThrow('caller left');
  }
});

test('a method the service does not have (a service of the previous version, mid rolling upgrade) is a 503 to retry', async () => {
  await expect(unary(client.List.bind(client), {}, { deadlineMs: 2_000 })).rejects.toMatchObject({
    status: 503,
    code: 'service_unavailable',
    retryable: true,
  });
});
