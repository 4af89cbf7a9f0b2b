/**
 * The billing process as deployed: BillingAppModule from the environment (DATABASE_URL, KAFKA_BROKERS,
 * KAFKA_TOPIC_PREFIX, UNIGATE_BOOTSTRAP_*) under runService, called over real gRPC with the shared
 * proto and loader options. Errors come back as the same GatewayError (fromGrpcError).
 */
import type { ServiceError } from '@grpc/grpc-js';
import type { INestApplication } from '@nestjs/common';
import { TOPICS } from '@unigate/contracts';
import { KafkaEventBus } from '@unigate/platform';
import { fromGrpcError, grpcClient, runService } from '@unigate/platform/distributed';
import {
  createTestDatabase,
  freePort,
  httpStatus,
  kafkaBrokers,
  redisUrl,
  uniqueName,
  waitForHttp,
  type TestDatabase,
} from '@unigate/testing';
import { hashApiKey } from '../src';
import { BillingAppModule } from '../src/billing.module';
import { logger, usageEvent, waitFor } from './harness';

type Call = (req: object) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const BOOTSTRAP_KEY = 'sk-grpcBootstrap0123456789abcdefghijklmnopqrstuvwxyzAB';
let db: TestDatabase;
let app: INestApplication;
let httpPort: number;
let client: Record<string, Call>;
let bus: KafkaEventBus;
const savedEnv = { ...process.env };

beforeAll(async () => {
  db = await createTestDatabase('billing_grpc');
  const prefix = uniqueName('billing_grpc');
  httpPort = await freePort();
  const grpcPort = await freePort();
  Object.assign(process.env, {
    DATABASE_URL: db.url,
    REDIS_URL: redisUrl(),
    KAFKA_TOPIC_PREFIX: prefix,
    UNIGATE_BOOTSTRAP_KEY: BOOTSTRAP_KEY,
    UNIGATE_BOOTSTRAP_CREDIT_USD: '2.5',
    PORT: String(httpPort),
    GRPC_PORT: String(grpcPort),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
  });
  app = await runService({ name: 'billing', module: BillingAppModule, grpc: true });

  const raw = grpcClient('billing', `127.0.0.1:${grpcPort}`) as unknown as Record<
    string,
    (req: object, cb: (err: ServiceError | null, res: unknown) => void) => void
  >;
  client = new Proxy({} as Record<string, Call>, {
    get: (_t, method: string) => (req: object) =>
      new Promise((resolve, reject) =>
        raw[method](req, (err: ServiceError | null, res: unknown) => (err ? reject(fromGrpcError(err)) : resolve(res))),
      ),
  });
  bus = new KafkaEventBus({ brokers: kafkaBrokers(), clientId: 'billing-grpc-test', topicPrefix: prefix, logger });
});

afterAll(async () => {
  await bus?.close();
  await app?.close();
  process.env = savedEnv;
  await db?.drop();
});

test('every rpc works end to end, with int64 money as strings and errors as GatewayErrors', async () => {
  const boot = await client.Authenticate({ key_hash: hashApiKey(BOOTSTRAP_KEY) });
  expect(boot).toMatchObject({ found: true, principal: { models: [], rate_limit_rpm: 0, max_concurrency: 0 } });
  expect(await client.GetAccount({ account_id: boot.principal.account_id })).toMatchObject({ name: 'bootstrap', balance_usd: 2.5 });

  const acc = await client.CreateAccount({ name: 'grpc', credit_micros: '3000000' });
  expect(acc).toEqual({ id: expect.any(String), name: 'grpc', balance_usd: 3, reserved_usd: 0 });
  expect(await client.Credit({ account_id: acc.id, amount_micros: '1000000', reference: 'r1' })).toEqual({ balance_usd: 4 });
  expect(await client.Credit({ account_id: acc.id, amount_micros: '1000000', reference: 'r1' })).toEqual({ balance_usd: 4 });

  const key = await client.CreateKey({ account_id: acc.id, models: ['m1'], rate_limit_rpm: 10 });
  expect(key.key).toMatch(/^sk-/);
  const auth = await client.Authenticate({ key_hash: hashApiKey(key.key) });
  expect(auth).toEqual({
    found: true,
    principal: { key_id: key.id, account_id: acc.id, models: ['m1'], rate_limit_rpm: 10, max_concurrency: 0, tier: 'paid' },
  });
  // The tier travels with the principal; an unknown tier is refused like the admin API refuses it.
  expect(await client.SetAccountTier({ account_id: acc.id, tier: 'free' })).toEqual({ account_id: acc.id, tier: 'free' });
  expect(await client.Authenticate({ key_hash: hashApiKey(key.key) })).toMatchObject({ principal: { tier: 'free' } });
  await expect(client.SetAccountTier({ account_id: acc.id, tier: 'gold' })).rejects.toMatchObject({ status: 400, param: 'tier' });
  const free = await client.CreateAccount({ name: 'grpc-free', credit_micros: '0', tier: 'free' });
  const freeKey = await client.CreateKey({ account_id: free.id });
  expect(await client.Authenticate({ key_hash: hashApiKey(freeKey.key) })).toMatchObject({ principal: { tier: 'free' } });

  // What an edge loads into Redis before its first admission for the account.
  expect(await client.GetAccountMoney({ account_id: acc.id })).toEqual({ found: true, balance_micros: '4000000', version: '1' });
  expect(await client.GetAccountMoney({ account_id: '00000000-0000-4000-8000-000000000000' })).toMatchObject({ found: false });
  expect(await client.ReleaseHold({ account_id: acc.id, hold_id: 'never-held' })).toEqual({});

  // usage.recorded over Kafka into the module's consumer, then read back through ListUsage.
  await bus.publish(TOPICS.usageRecorded, acc.id, usageEvent(acc.id, { request_id: 'g-3', cost_micros: 1_500_000 }));
  await waitFor('settlement', async () => (await client.ListUsage({ account_id: acc.id })).entries.length === 1);
  const [entry] = (await client.ListUsage({ account_id: acc.id })).entries;
  expect(entry).toMatchObject({ request_id: 'g-3', cost_micros: '1500000' });
  expect(JSON.parse(entry.units.toString())).toEqual(usageEvent(acc.id, { request_id: 'g-3' }).units);
  expect(await client.GetAccount({ account_id: acc.id })).toMatchObject({ balance_usd: 2.5, reserved_usd: 0 });
  const today = new Date().toISOString().slice(0, 10);
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  expect(await client.GetUsageSummary({ account_id: acc.id, from: today, to: tomorrow })).toEqual({
    rows: [
      {
        date: entry.created_at.slice(0, 10),
        model: 'gpt-test',
        requests: '1',
        input_tokens: entry.input_tokens,
        output_tokens: entry.output_tokens,
        cost_micros: '1500000',
      },
    ],
  });

  // UpdateKey: absent fields stay; empty, an empty model list and 0 clear; a revoked key is not found.
  expect(await client.UpdateKey({ key_id: key.id, max_concurrency: 3 })).toMatchObject({
    id: key.id,
    account_id: acc.id,
    models: ['m1'],
    rate_limit_rpm: 10,
    max_concurrency: 3,
  });
  expect(await client.UpdateKey({ key_id: key.id, name: 'renamed', models: { models: [] }, rate_limit_rpm: 0 })).toMatchObject({
    name: 'renamed',
    models: [],
    rate_limit_rpm: 0,
    max_concurrency: 3,
  });
  expect(await client.Authenticate({ key_hash: hashApiKey(key.key) })).toMatchObject({
    principal: { models: [], rate_limit_rpm: 0, max_concurrency: 3 },
  });
  await expect(client.UpdateKey({ key_id: key.id })).rejects.toMatchObject({ status: 400 });

  expect(await client.RevokeKey({ key_id: key.id })).toEqual({});
  expect(await client.Authenticate({ key_hash: hashApiKey(key.key) })).toMatchObject({ found: false });
  await expect(client.UpdateKey({ key_id: key.id, rate_limit_rpm: 5 })).rejects.toMatchObject({ status: 404 });

  await expect(client.GetAccount({ account_id: '00000000-0000-4000-8000-000000000000' })).rejects.toMatchObject({ status: 404 });
  await expect(client.CreateKey({ account_id: acc.id, rate_limit_rpm: -1 })).rejects.toMatchObject({
    status: 400,
    param: 'rate_limit_rpm',
  });
  await expect(client.Credit({ account_id: acc.id, amount_micros: '0', reference: '' })).rejects.toMatchObject({ status: 400 });
});

test('readiness reports the database and Kafka', async () => {
  await waitForHttp(`http://127.0.0.1:${httpPort}/health/ready`);
  expect(await httpStatus(`http://127.0.0.1:${httpPort}/health/ready`)).toBe(200);
});
