/**
 * unary() against a real gRPC server whose handler never answers (a hung service): the deadline ends
 * the call with a 503, a signal cancels it, and a bare AbortSignal is still taken as the signal. A
 * method the server does not have (UNIMPLEMENTED) is a 503 too. A service that is down is tried again
 * at most RECONNECT_BACKOFF_MAX_MS apart, so calls find it soon after it is back.
 */
import { createServer } from 'node:net';
import type { CatalogServiceHandlers } from '@unigate/proto';
import { grpcClient, RECONNECT_BACKOFF_MAX_MS, unary } from './grpc-client';
import { startGrpcServer, type GrpcServer } from './grpc-server';

let server: GrpcServer;
let client: ReturnType<typeof grpcClient<'catalog'>>;
let calls = 0;

beforeAll(async () => {
  const hung: Partial<CatalogServiceHandlers> = { Resolve: () => void (calls += 1) };
  server = await startGrpcServer('127.0.0.1:0', { catalog: hung as CatalogServiceHandlers });
  client = grpcClient('catalog', `127.0.0.1:${server.port}`);
  // Connected before the first call: on a loaded host the connection alone once took the whole 300 ms
  // deadline (a fresh-clone CI run), and the call never reached the server the test says it hangs.
  await new Promise<void>((resolve, reject) => client.waitForReady(Date.now() + 10_000, (err) => (err ? reject(err) : resolve())));
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

test('a service that is down is tried again at most RECONNECT_BACKOFF_MAX_MS apart, not up to the 120 s of grpc-js', async () => {
  // A port whose every connection is closed at once, as a service that is down answers; grpc-js backs
  // off between attempts by itself (no call needed). Its default waits 1, 1.6, 2.6, 4.1 s… in these 12 s.
  const attempts: number[] = [];
  const down = createServer((socket) => {
    attempts.push(performance.now());
    socket.destroy();
  });
  await new Promise<void>((r) => down.listen(0, '127.0.0.1', r));
  const port = (down.address() as { port: number }).port;
  const downClient = grpcClient('catalog', `127.0.0.1:${port}`);
  try {
    downClient.getChannel().getConnectivityState(true);
    await new Promise((r) => setTimeout(r, 12_000));
  } finally {
    downClient.close();
    await new Promise((r) => down.close(r));
  }
  const gaps = attempts.slice(1).map((t, i) => t - attempts[i]);
  expect(gaps.length).toBeGreaterThanOrEqual(5);
  // grpc-js adds up to 20 % of jitter to each wait.
  expect(Math.max(...gaps)).toBeLessThan(RECONNECT_BACKOFF_MAX_MS * 1.2 + 250);
}, 20_000);
