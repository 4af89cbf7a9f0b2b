/**
 * Exact money end to end (issue 3): concurrent spending never exceeds the funds, the ledger equals
 * the balance's drop to the micro-dollar, a stream the client cuts is charged for what was produced,
 * and the dashboard endpoints' arithmetic equals the ledger.
 */
import { Admin, eventually } from './admin';
import type { Stack } from './stacks';
import { openaiFor, useStack, json } from './use-stack';

const MODEL = 'sigma-sonnet-4-6';
const micros = (usd: number) => Math.round(usd * 1e6);

export function billingSuite(start: () => Promise<Stack>) {
  let stack: Stack;
  let admin: Admin;

  useStack(start, (s) => {
    stack = s;
    admin = new Admin(s);
  });

  /** A chat request through edge replica `edge` (round robin over however many the stack runs). */
  const chat = (key: string, body: object, edge = 0) =>
    fetch(`${stack.edges[edge % stack.edges.length].baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('200 concurrent requests on an account funded for 50, spread over every edge replica: at most 50 succeed, the rest 402, ledger = balance drop', async () => {
    const body = { model: MODEL, messages: [{ role: 'user', content: 'Count the ships in the harbor' }], max_tokens: 8 };
    // What one such request really costs (deterministic upstream): measure it on a separate account.
    const probe = await admin.fundedKey(1);
    expect((await chat(probe.key, body)).status).toBe(200);
    const [probeEntry] = await eventually(
      () => admin.usage(probe.accountId),
      (e) => e.length === 1,
    );
    const cost = probeEntry.cost_micros;
    expect(cost).toBeGreaterThan(0);

    const funded = 50 * cost;
    const { accountId, key } = await admin.fundedKey(funded / 1e6);
    const statuses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => chat(key, body, i).then(async (r) => (await r.arrayBuffer(), r.status))),
    );
    const ok = statuses.filter((s) => s === 200).length;
    expect(statuses.every((s) => s === 200 || s === 402)).toBe(true);
    expect(ok).toBeGreaterThan(0);
    expect(ok).toBeLessThanOrEqual(50);

    const entries = await eventually(
      () => admin.usage(accountId),
      (e) => e.length === ok,
    );
    const account = await eventually(
      () => admin.account(accountId),
      (a) => a.reserved_usd === 0,
    );
    const ledgerSum = entries.reduce((s, e) => s + e.cost_micros, 0);
    expect(ledgerSum).toBe(ok * cost);
    expect(funded - micros(account.balance_usd)).toBe(ledgerSum);
    expect(account.balance_usd).toBeGreaterThanOrEqual(0);
  }, 120_000);

  it('an account with room for one worst case more than it spends makes call after call: a finished call holds only its cost until billing settles it', async () => {
    const body = { model: MODEL, messages: [{ role: 'user', content: 'Count the ships in the harbor' }], max_tokens: 4000 };
    // The worst case the hold reserves, as a 402 names it, and what such a call really costs.
    const short = await admin.fundedKey(0.000001);
    const refused = await chat(short.key, body);
    expect(refused.status).toBe(402);
    const worst = micros(Number(/may cost up to \$([0-9.]+)/.exec((await json(refused)).error.message)![1]));
    const probe = await admin.fundedKey(1);
    expect((await chat(probe.key, body)).status).toBe(200);
    const [{ cost_micros: cost }] = await eventually(
      () => admin.usage(probe.accountId),
      (e) => e.length === 1,
    );
    expect(cost).toBeGreaterThan(0);
    expect(5 * cost).toBeLessThan(worst);

    // Less than two worst cases: had a finished call kept its worst case held until billing settled
    // it (a settlement comes up to 50 ms later), the call right after it would be refused.
    const funded = worst + 5 * cost;
    const { accountId, key } = await admin.fundedKey(funded / 1e6);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await chat(key, body);
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const entries = await eventually(
      () => admin.usage(accountId),
      (e) => e.length === 5,
    );
    expect(entries.every((e) => e.cost_micros === cost)).toBe(true);
    const account = await eventually(
      () => admin.account(accountId),
      (a) => a.reserved_usd === 0,
    );
    expect(micros(account.balance_usd)).toBe(funded - 5 * cost);
  }, 60_000);

  it('charges a stream the client cut half way for the tokens produced: not zero, not max_tokens', async () => {
    const { accountId, key } = await admin.fundedKey(5);
    const client = openaiFor(stack, key);
    const messages = [{ role: 'user' as const, content: 'Tell me about the old lighthouse keeper and his long evenings' }];
    const full = await client.chat.completions.create({ model: MODEL, messages, max_tokens: 400 });
    const fullTokens = full.usage!.completion_tokens;
    expect(fullTokens).toBeGreaterThan(10);
    await eventually(
      () => admin.usage(accountId),
      (e) => e.length === 1,
    );

    await fetch(`${stack.simUrl}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ match: { model: MODEL }, token_delay_ms: 40, count: 1 }),
    });
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: MODEL, messages, max_tokens: 400, stream: true },
      { signal: controller.signal },
    );
    let received = 0;
    // Leave the loop at the abort: chunks the SDK had already read in the same piece would still be
    // yielded after it (CI once counted 5).
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta?.content) received++;
      if (received === 4) {
        controller.abort();
        break;
      }
    }
    expect(received).toBe(4);

    const entries = await eventually(
      () => admin.usage(accountId),
      (e) => e.length === 2,
      20_000,
    );
    const cut = entries.find((e) => e.request_id !== entries[entries.length - 1].request_id) ?? entries[0];
    expect(cut.output_tokens).toBeGreaterThan(0);
    expect(cut.output_tokens).toBeLessThan(fullTokens);
    expect(cut.output_tokens).toBeLessThan(400);
    const account = await eventually(
      () => admin.account(accountId),
      (a) => a.reserved_usd === 0,
    );
    const charged = entries.reduce((s, e) => s + e.cost_micros, 0);
    expect(micros(5) - micros(account.balance_usd)).toBe(charged);
  }, 60_000);

  it('a stream its client cuts keeps only what it cost held: with room for one worst case and a micro-dollar more, the next stream is refused, even with billing stopped', async () => {
    const messages = [{ role: 'user' as const, content: 'Tell me about the old lighthouse keeper and his long evenings' }];
    const body = { model: MODEL, messages, max_tokens: 400, stream: true as const };
    const short = await admin.fundedKey(0.000001);
    const refused = await chat(short.key, body);
    expect(refused.status).toBe(402);
    const worst = micros(Number(/may cost up to \$([0-9.]+)/.exec((await json(refused)).error.message)![1]));

    const funded = worst + 1;
    const { accountId, key } = await admin.fundedKey(funded / 1e6);
    await fetch(`${stack.simUrl}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ match: { model: MODEL }, token_delay_ms: 40, count: 1 }),
    });
    const controller = new AbortController();
    const stream = await openaiFor(stack, key).chat.completions.create(body, { signal: controller.signal });
    // Billing stopped (distributed): nothing settles the cut stream's charge while the next call is
    // admitted, so only the edge's own hold decides it.
    const billing = stack.processes.find((p) => p.name === 'billing');
    let next: number;
    try {
      let received = 0;
      for await (const chunk of stream) {
        if (chunk.choices[0]?.delta?.content) received++;
        if (received === 4) {
          if (billing) process.kill(billing.pid, 'SIGSTOP');
          controller.abort();
          break;
        }
      }
      // Fewer means the stream ended before the cut.
      expect(received).toBe(4);
      // Time for the edge to end the cut call. Had its whole hold gone back, the worst case would be
      // free again and the next stream admitted; held at its cost, a micro-dollar short.
      await new Promise((r) => setTimeout(r, 300));
      const res = await chat(key, body);
      await res.arrayBuffer();
      next = res.status;
    } finally {
      if (billing) process.kill(billing.pid, 'SIGCONT');
    }
    expect(next).toBe(402);

    const [cut] = await eventually(
      () => admin.usage(accountId),
      (e) => e.length === 1,
      20_000,
    );
    expect(cut.cost_micros).toBeGreaterThan(0);
    const account = await eventually(
      () => admin.account(accountId),
      (a) => a.reserved_usd === 0,
    );
    expect(micros(account.balance_usd)).toBe(funded - cut.cost_micros);
  }, 60_000);

  it('a short balance is 402 with a message-only Shape B body on every endpoint family, Shape A ones included (SPEC §7)', async () => {
    const { key } = await admin.fundedKey(0);
    const requests: Array<[string, object]> = [
      ['/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'hi' }] }],
      ['/images/generations', { model: 'alpha-image-2.0', input: { messages: [{ role: 'user', content: [{ text: 'a cat' }] }] } }],
      [
        '/videos/generations',
        {
          model: 'beta2.6-t2v',
          duration: 5,
          resolution: '720p',
          input: { prompt: 'a cat' },
          parameters: { size: '1280*720', duration: 5 },
        },
      ],
      ['/embeddings', { model: 'zeta-4', input: 'hi' }],
      ['/audio/speech', { model: 'alpha3-tts-flash', input: 'hi' }],
    ];
    for (const [path, body] of requests) {
      const res = await fetch(`${stack.baseURL}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect([path, res.status]).toEqual([path, 402]);
      expect([path, await json(res)]).toEqual([path, { error: { message: expect.stringMatching(/^Insufficient balance/) } }]);
    }
  });

  /**
   * A messages-format `body` whose hold is above what `shortUsd` covers though its charge is not: refused
   * 402 (returned, unread) with that balance; with $1 served and charged what the upstream says it
   * read, below `shortUsd`, and the rest of the hold released.
   */
  async function refusedShortServedFunded(body: object, shortUsd: number): Promise<Response> {
    const send = (key: string) =>
      fetch(`${stack.baseURL}/messages`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const refused = await send((await admin.fundedKey(shortUsd)).key);
    expect(refused.status).toBe(402);
    const funded = await admin.fundedKey(1);
    const served = await send(funded.key);
    expect(served.status).toBe(200);
    const answer = (await json(served)) as { usage: { input_tokens: number } };
    const [entry] = await eventually(
      () => admin.usage(funded.accountId),
      (e) => e.length === 1,
    );
    expect(entry.input_tokens).toBe(answer.usage.input_tokens);
    expect(entry.cost_micros).toBeLessThan(micros(shortUsd));
    const account = await eventually(
      () => admin.account(funded.accountId),
      (a) => a.reserved_usd === 0,
    );
    expect(micros(account.balance_usd)).toBe(micros(1) - entry.cost_micros);
    return refused;
  }

  it("holds a PDF, whose pages the edge cannot count, for the model's whole window: refused 402 when the balance cannot cover it, served and charged what was read when it can", async () => {
    // sigma-sonnet-4-6: a 200,000-token window at $3 per million input tokens, $15 per million output.
    const body = {
      model: MODEL,
      max_tokens: 16,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQK' } },
            { type: 'text', text: 'Summarize the report' },
          ],
        },
      ],
    };
    // Room for the request as estimated (a page's fixed cost: ~$0.004), not for a window of input ($0.60).
    const refused = await refusedShortServedFunded(body, 0.05);
    expect(await json(refused)).toMatchObject({
      type: 'error',
      error: { type: expect.any(String), message: expect.stringMatching(/^Insufficient balance/) },
    });
  });

  it("holds each image at the most the model's vendor charges for one (sigma-opus-4-7: 5,000 tokens), not at the fixed cost the edge counts", async () => {
    // A 1×1 PNG, twenty times: counted at 765 tokens each (~$0.09 held at $5 per million input
    // tokens), held at up to 5,000 each (~$0.52), which a large image costs on the vendor's side.
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } };
    const body = {
      model: 'sigma-opus-4-7',
      max_tokens: 16,
      messages: [{ role: 'user', content: [...Array.from({ length: 20 }, () => image), { type: 'text', text: 'Compare them' }] }],
    };
    await refusedShortServedFunded(body, 0.2);
  });

  it('serves subscription/usage so that hard_limit_usd − total_usage/100 is the true balance', async () => {
    const { accountId, key } = await admin.fundedKey(3);
    for (let i = 0; i < 3; i++)
      expect((await chat(key, { model: MODEL, messages: [{ role: 'user', content: `bill me ${i}` }] })).status).toBe(200);
    const entries = await eventually(
      () => admin.usage(accountId),
      (e) => e.length === 3,
    );
    const account = await eventually(
      () => admin.account(accountId),
      (a) => a.reserved_usd === 0,
    );
    const get = async (path: string) => json(await fetch(`${stack.origin}${path}`, { headers: { authorization: `Bearer ${key}` } }));
    const sub = await get('/v1/dashboard/billing/subscription');
    const usage = await get('/v1/dashboard/billing/usage?start_date=2020-01-01&end_date=2020-06-01');
    expect(sub.object).toBe('billing_subscription');
    expect(sub.hard_limit_usd).toBeCloseTo(3, 9);
    expect(usage.total_usage).toBeCloseTo(entries.reduce((s, e) => s + e.cost_micros, 0) / 1e4, 9);
    expect(sub.hard_limit_usd - usage.total_usage / 100).toBeCloseTo(account.balance_usd, 9);
    const recent = await get('/dashboard/billing/usage');
    expect(recent.total_usage).toBe(usage.total_usage);
    expect(recent.daily_costs).toHaveLength(1);
    const bad = await fetch(`${stack.origin}/v1/dashboard/billing/usage?start_date=nope`, { headers: { authorization: `Bearer ${key}` } });
    expect(bad.status).toBe(400);
    expect((await json(bad)).error.param).toBe('start_date');
  });

  it('pages the admin usage list: limit entries newest first, a Link to the next page after the last, every entry once', async () => {
    const { accountId, key } = await admin.fundedKey(3);
    for (let i = 0; i < 5; i++)
      expect((await chat(key, { model: MODEL, messages: [{ role: 'user', content: `page me ${i}` }] })).status).toBe(200);
    const whole = await eventually(
      () => admin.usage(accountId),
      (e) => e.length === 5,
    );
    const walked: Array<{ request_id: string }> = [];
    const links: Array<string | null> = [];
    let path: string | undefined = `/accounts/${accountId}/usage?limit=2`;
    while (path) {
      const page: { body: Array<{ request_id: string }>; headers: Headers; status: number } = await admin.request('GET', path);
      expect(page.status).toBe(200);
      expect(page.body.length).toBeLessThanOrEqual(2);
      walked.push(...page.body);
      const link: string | null = page.headers.get('link');
      links.push(link);
      path = link ? /^<\/admin\/v1(\/[^>]+)>; rel="next"$/.exec(link)![1] : undefined;
    }
    expect(walked.map((e) => e.request_id)).toEqual(whole.map((e) => e.request_id));
    expect(links.map((l) => l !== null)).toEqual([true, true, false]);

    const refused = async (query: string, account = accountId) => {
      const r = await admin.call<{ error: { type: string; param: string } }>('GET', `/accounts/${account}/usage?${query}`);
      return [r.status, r.body.error.type, r.body.error.param];
    };
    // An entry of another account, an id of no entry, no id at all: each a 400 naming `after`.
    const [{ id: entryId }] = (await admin.call<Array<{ id: string }>>('GET', `/accounts/${accountId}/usage?limit=1`)).body;
    const other = await admin.fundedKey(1);
    expect(await refused(`after=${entryId}`, other.accountId)).toEqual([400, 'invalid_request_error', 'after']);
    for (const query of ['after=00000000-0000-4000-8000-000000000000', 'after=42'])
      expect(await refused(query)).toEqual([400, 'invalid_request_error', 'after']);
    for (const query of ['limit=0', 'limit=1001', 'limit=two'])
      expect(await refused(query)).toEqual([400, 'invalid_request_error', 'limit']);
    expect((await refused('before=x'))[0]).toBe(400);
  });

  it("takes an account's id in any letter case as the one account: a top-up through an upper-case id is the balance its keys spend", async () => {
    const { id } = await admin.createAccount(`case-${Date.now()}`, 0);
    const upper = id.toUpperCase();
    expect(upper).not.toBe(id);
    const credited = await admin.call<{ balance_usd: number }>('POST', `/accounts/${upper}/credit`, { amount_usd: 1, reference: 'case-1' });
    expect(credited).toEqual({ status: 200, body: { balance_usd: 1 } });
    expect(await admin.account(id)).toMatchObject({ id, balance_usd: 1 });
    expect(await admin.account(upper)).toMatchObject({ id, balance_usd: 1 });
    // The replay through the other spelling is the same top-up, not a second one.
    expect((await admin.call('POST', `/accounts/${id}/credit`, { amount_usd: 1, reference: 'case-1' })).body).toEqual({ balance_usd: 1 });

    const { key } = await admin.createKey(upper);
    expect((await chat(key, { model: MODEL, messages: [{ role: 'user', content: 'spend it' }] })).status).toBe(200);
    const [entry] = await eventually(
      () => admin.usage(upper),
      (e) => e.length === 1,
    );
    const account = await eventually(
      () => admin.account(upper),
      (a) => a.reserved_usd === 0,
    );
    expect(micros(account.balance_usd)).toBe(micros(1) - entry.cost_micros);

    // One webhook secret for the account, whichever spelling asked for it.
    const secrets = await Promise.all(
      [id, upper, id].map((spelling) => admin.call<{ account_id: string; secret: string }>('GET', `/accounts/${spelling}/webhook-secret`)),
    );
    expect(new Set(secrets.map((r) => `${r.status} ${r.body.account_id} ${r.body.secret}`)).size).toBe(1);
    expect(secrets[0].body.account_id).toBe(id);
  });

  it('refuses a misspelt field in an admin body with a 400 naming it, rather than dropping it', async () => {
    const { id } = await admin.createAccount(`typo-${Date.now()}`, 0);
    for (const [path, body, field] of [
      ['/accounts', { name: 'typo', credit: 50 }, 'credit'],
      [`/accounts/${id}/credit`, { amount_usd: 1, ref: 'inv-1' }, 'ref'],
      [`/accounts/${id}/keys`, { models: ['sigma-sonnet-4-6'], rpm: 5 }, 'rpm'],
    ] as const) {
      const r = await admin.call<{ error: { type: string; message: string } }>('POST', path, body);
      expect([path, r.status, r.body.error.type, r.body.error.message]).toEqual([
        path,
        400,
        'invalid_request_error',
        expect.stringContaining(field),
      ]);
    }
    expect(await admin.account(id)).toMatchObject({ balance_usd: 0 });
    // An empty key name is no name, as PATCH takes it.
    expect((await admin.call('POST', `/accounts/${id}/keys`, { name: '' })).status).toBe(201);
  });
}
