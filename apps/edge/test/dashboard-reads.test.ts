/**
 * The dashboard's reads: a call listed in the usage is also in the balance shown beside it. The edge
 * runs in-process on a billing port whose settlement commits while the usage is being read, which is
 * the moment a page read side by side caught in CI (the call listed, the balance from before it).
 * The usage table counts every call of its days, more than the one page of entries listUsage answers.
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  USAGE_PAGE_LIMIT,
  type AccountView,
  type DailyModelUsage,
  type DateRange,
  type LedgerEntryView,
  type UsagePage,
  type UsagePageQuery,
  type UserView,
} from '@unigate/contracts';
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

/** Calls made today: more than one page of billing's listUsage holds (USAGE_PAGE_LIMIT). */
const CALLS_TODAY = 1_200;
const DAY_MS = 86_400_000;
const today = () => new Date().toISOString().slice(0, 10);

let app: NestFastifyApplication;
let fastify: FastifyInstance;
const summaryRanges: DateRange[] = [];
const usagePages: UsagePageQuery[] = [];

beforeAll(async () => {
  // One call, settled in the middle of the usage read: its entry and its charge commit together.
  let committed = false;
  const billing = {
    verifyUser: async () => USER,
    listKeys: async () => [],
    getAccount: async (): Promise<AccountView> => ({ id: 'a1', name: 'reader', balance_usd: committed ? 4.99985 : 5, reserved_usd: 0 }),
    listUsage: async (_accountId: string, page: UsagePageQuery = {}): Promise<UsagePage> => {
      usagePages.push(page);
      await new Promise((resolve) => setImmediate(resolve));
      committed = true;
      const limit = page.limit ?? USAGE_PAGE_LIMIT;
      const older = Array.from({ length: limit - 1 }, (_, i) => ({ ...ENTRY, id: `older-${i}`, request_id: `older-${i}` }));
      return { entries: [ENTRY, ...older], has_more: true };
    },
    // Billing sums every entry of the range, not only the page listUsage answers.
    usageSummary: async (_accountId: string, range: DateRange): Promise<DailyModelUsage[]> => {
      summaryRanges.push(range);
      return [
        {
          date: today(),
          model: ENTRY.model,
          requests: CALLS_TODAY,
          input_tokens: CALLS_TODAY * ENTRY.input_tokens,
          output_tokens: CALLS_TODAY * ENTRY.output_tokens,
          cost_micros: CALLS_TODAY * ENTRY.cost_micros,
        },
      ];
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

/** Logs in and answers the session's cookies. */
async function logIn(): Promise<string> {
  const form = await fastify.inject({ method: 'GET', url: '/login' });
  const csrf = /unigate_csrf=([\w-]+)/.exec(String(form.headers['set-cookie']))![1];
  const login = await fastify.inject({
    method: 'POST',
    url: '/login',
    headers: { cookie: `unigate_csrf=${csrf}`, 'content-type': 'application/x-www-form-urlencoded' },
    payload: `_csrf=${csrf}&email=${encodeURIComponent(USER.email)}&password=long+enough+password`,
  });
  expect(login.statusCode).toBe(303);
  return String(login.headers['set-cookie'])
    .split(/,(?=\s*\w+=)/)
    .map((c) => c.split(';')[0].trim())
    .join('; ');
}

test('a call listed in the usage is in the balance beside it', async () => {
  const session = await logIn();
  const page = await fastify.inject({ method: 'GET', url: '/dashboard', headers: { cookie: session } });
  expect(page.statusCode).toBe(200);
  expect(page.body).toContain('req-1');
  expect(page.body).toContain('id="balance">$4.99985<');
});

test("the usage table counts every call of the day, more than one page of listUsage's entries", async () => {
  const page = await fastify.inject({ method: 'GET', url: '/dashboard', headers: { cookie: await logIn() } });
  expect(page.statusCode).toBe(200);
  const table = /<table id="usage">.*?<\/table>/s.exec(page.body)![0];
  const rows = [...table.matchAll(/<tr><td>(.*?)<\/td><td>(.*?)<\/td><td class="num">(\d+)<\/td><td class="num">(\d+)<\/td>/g)];
  expect(rows.map((r) => r.slice(1, 5))).toEqual([
    [today(), ENTRY.model, String(CALLS_TODAY), String(CALLS_TODAY * (ENTRY.input_tokens + ENTRY.output_tokens))],
  ]);
  // The recent requests are the newest entries, one page of 20 (not a page of 1,000 cut to 20).
  expect(usagePages.at(-1)).toEqual({ limit: 20 });
  const recent = /<table id="recent">.*?<\/table>/s.exec(page.body)![0];
  expect([...recent.matchAll(/<td class="muted">(.*?)<\/td>/g)].map((r) => r[1])).toEqual([
    'req-1',
    ...Array.from({ length: 19 }, (_, i) => `older-${i}`),
  ]);
  // The last 30 days and today, as UTC dates ([from, to)).
  expect(summaryRanges.at(-1)).toEqual({
    from: new Date(Date.now() - 30 * DAY_MS).toISOString().slice(0, 10),
    to: new Date(Date.now() + DAY_MS).toISOString().slice(0, 10),
  });
});
