/**
 * The dashboard's reads: a call listed in the usage is also in the balance shown beside it. The edge
 * runs in-process on a billing port whose settlement commits while the usage is being read, which is
 * the moment a page read side by side caught in CI (the call listed, the balance from before it).
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AccountView, LedgerEntryView, UserView } from '@unigate/contracts';
import { createLogger } from '@unigate/platform';
import type { FastifyInstance } from 'fastify';
import { createEdgeApp } from '../src/create-edge-app';

const USER: UserView = { id: 'u1', email: 'reader@example.com', account_id: 'a1' };
const ENTRY: LedgerEntryView = {
  id: 'e1',
  request_id: 'req-1',
  model: 'sigma-sonnet-4-6',
  kind: 'chat',
  input_tokens: 10,
  cached_input_tokens: 0,
  output_tokens: 8,
  units: { input_tokens: 10, output_tokens: 8 },
  cost_usd: 0.00015,
  cost_micros: 150,
  created_at: new Date().toISOString(),
};

let app: NestFastifyApplication;
let fastify: FastifyInstance;

beforeAll(async () => {
  // One call, settled in the middle of the usage read: its entry and its charge commit together.
  let committed = false;
  const billing = {
    verifyUser: async () => USER,
    listKeys: async () => [],
    getAccount: async (): Promise<AccountView> => ({ id: 'a1', name: 'reader', balance_usd: committed ? 4.99985 : 5, reserved_usd: 0 }),
    listUsage: async (): Promise<LedgerEntryView[]> => {
      await new Promise((resolve) => setImmediate(resolve));
      committed = true;
      return [ENTRY];
    },
  };
  app = (await createEdgeApp({
    ports: { billing: billing as never, catalog: {} as never, services: {} },
    logger: createLogger('dashboard-reads-test'),
    instanceId: 'dashboard-reads-test',
    reservations: { checkReady: async () => undefined } as never,
    adminToken: 'x'.repeat(32),
    web: { signup: true, invites: new Set(), creditMicros: 0, tier: 'free' },
  })) as NestFastifyApplication;
  await app.init();
  fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  await fastify.ready();
});

afterAll(async () => {
  await app?.close();
});

test('a call listed in the usage is in the balance beside it', async () => {
  const form = await fastify.inject({ method: 'GET', url: '/login' });
  const csrf = /unigate_csrf=([\w-]+)/.exec(String(form.headers['set-cookie']))![1];
  const login = await fastify.inject({
    method: 'POST',
    url: '/login',
    headers: { cookie: `unigate_csrf=${csrf}`, 'content-type': 'application/x-www-form-urlencoded' },
    payload: `_csrf=${csrf}&email=${encodeURIComponent(USER.email)}&password=long+enough+password`,
  });
  expect(login.statusCode).toBe(303);
  const session = String(login.headers['set-cookie'])
    .split(/,(?=\s*\w+=)/)
    .map((c) => c.split(';')[0].trim())
    .join('; ');
  const page = await fastify.inject({ method: 'GET', url: '/dashboard', headers: { cookie: session } });
  expect(page.statusCode).toBe(200);
  expect(page.body).toContain('req-1');
  expect(page.body).toContain('id="balance">$4.99985<');
});
