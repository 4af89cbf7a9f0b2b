/**
 * Sign-up, log-in and the dashboard in a real browser (Debian's Chromium, playwright-core): a new
 * user signs up, logs out and in, creates a key, calls the API with it through the official openai
 * client, sees the call on the dashboard, submits a video task with it and sees the task (and its
 * result link) in the video card, verifies the task's webhook with the signing secret the dashboard
 * shows, revokes the key and sees the client refused. A wrong
 * password, a POST without the CSRF token and the session cookie replayed after logout are refused;
 * repeated failed log-ins end in 429. With several edge replicas, the checks of session state go to
 * another replica than the one that made it (sessions and throttles live in Redis there).
 * Screenshots go to test-artifacts/.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FAST_VIDEO_ENV } from '@unigate/testing';
import OpenAI from 'openai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { eventually } from './admin';
import { artifactPath, launchChromium } from './browser';
import type { Stack } from './stacks';
import { useStack } from './use-stack';
import { videoBody } from './video-cases';

const MODEL = 'sigma-sonnet-4-6';
const VIDEO_MODEL = 'beta2.6-t2v';
/**
 * Signed-up accounts start with this (UNIGATE_SIGNUP_CREDIT_USD), so the new key can be used; video
 * tasks end within a second and may send their webhook to the test's receiver on 127.0.0.1.
 */
export const DASHBOARD_ENV = { ...FAST_VIDEO_ENV, UNIGATE_SIGNUP_CREDIT_USD: '5' };

export function dashboardSuite(name: string, start: () => Promise<Stack>) {
  let stack: Stack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const email = `User.${Date.now()}@Example.com`;
  const password = 'correct horse battery staple';
  let apiKey = '';

  useStack(start, (s) => (stack = s));
  beforeAll(async () => {
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** The last replica: in distributed mode not the one the browser signed up on. */
  const other = () => stack.edges[stack.edges.length - 1].origin;
  const shot = (step: string) => page.screenshot({ path: artifactPath(`dashboard-${name}-${step}.png`), fullPage: true });
  const sessionCookie = async () => (await context.cookies()).find((c) => c.name === 'unigate_session')?.value;
  const client = () => new OpenAI({ baseURL: stack.baseURL, apiKey, maxRetries: 0 });
  /** Submits a form and returns the status of the page it lands on. */
  const submit = async (button: string) => {
    const [response] = await Promise.all([page.waitForNavigation(), page.click(button)]);
    return response?.status();
  };

  it('signs up a new user (secure cookie flags) and shows the opening credit', async () => {
    await page.goto(`${stack.origin}/signup`);
    await page.fill('#email', email);
    await page.fill('#password', password);
    expect(await submit('button[type=submit]')).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    expect(await page.textContent('#balance')).toBe('$5.00');
    const cookie = (await context.cookies()).find((c) => c.name === 'unigate_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    await shot('1-signed-up');
  });

  it('refuses a wrong password, then logs in', async () => {
    await submit('header button');
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.fill('#email', email.toLowerCase());
    await page.fill('#password', 'not the password');
    expect(await submit('main button[type=submit]')).toBe(401);
    expect(await page.textContent('.error')).toContain('Wrong email or password');
    await page.fill('#password', password);
    expect(await submit('main button[type=submit]')).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/dashboard');
  });

  it('creates a key shown once, which the openai client can use', async () => {
    await page.fill('input[name=name]', 'browser test');
    await submit('form[action="/dashboard/keys"] button');
    apiKey = (await page.textContent('#new-key .secret'))!.trim();
    expect(apiKey).toMatch(/^sk-/);
    await shot('2-key-created');
    const answer = await client().chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Hello from the dashboard test' }],
      max_tokens: 8,
    });
    expect(answer.choices[0].message.content).toBeTruthy();
    await page.goto(`${stack.origin}/dashboard`);
    expect(await page.locator('#new-key').count()).toBe(0);
    // Where to use it: the base URL as the page was reached, and the reference.
    expect(await page.textContent('#base-url')).toContain(`${stack.origin}/v1`);
    expect(await page.getAttribute('#base-url a', 'href')).toBe('/docs');
  });

  it('makes no second key when the create form is sent again (a reload of the page showing the secret)', async () => {
    // No DOM types here (the tests compile for Node): each hidden input's name and value.
    const fields = await page.$$eval('form[action="/dashboard/keys"] input[type=hidden]', (inputs) =>
      inputs.map((i) => [i.getAttribute('name') ?? '', i.getAttribute('value') ?? ''] as [string, string]),
    );
    await page.fill('input[name=name]', 'sent twice');
    expect(await submit('form[action="/dashboard/keys"] button')).toBe(200);
    expect(await page.locator('#new-key').count()).toBe(1);
    const keys = await page.locator('#keys tbody tr').count();
    // What the browser sends again on a reload: the same form, the same cookie.
    const again = await fetch(`${other()}/dashboard/keys`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: `unigate_session=${await sessionCookie()}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams([...fields, ['name', 'sent twice']]).toString(),
    });
    expect([again.status, again.headers.get('location')]).toEqual([303, '/dashboard']);
    await page.goto(`${stack.origin}/dashboard`);
    expect(await page.locator('#keys tbody tr').count()).toBe(keys);
    // The form's address, typed or bookmarked, is the dashboard.
    expect(await page.goto(`${stack.origin}/dashboard/keys`).then((r) => [r?.status(), new URL(page.url()).pathname])).toEqual([
      200,
      '/dashboard',
    ]);
    // Only the first key is kept for the tests that follow.
    await submit(`#keys tr:has-text("sent twice") button.danger`);
  });

  it('refuses a form sent from a page of another site, even one that planted the CSRF cookie (login CSRF)', async () => {
    // A page on another port of this host: cookies ignore ports, so it can set this host's CSRF cookie.
    const planter = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(`<!doctype html><form id="f" method="post" action="${stack.origin}/login">
<input name="_csrf" value="planted-token-planted-token-planted-token-x"><input name="email" value="attacker@example.com">
<input name="password" value="attacker password"></form>
<script>document.cookie = 'unigate_csrf=planted-token-planted-token-planted-token-x; path=/'; document.getElementById('f').submit();</script>`);
    });
    await new Promise<void>((r) => planter.listen(0, '127.0.0.1', () => r()));
    const fresh = await browser.newContext();
    try {
      const victim = await fresh.newPage();
      const landed = victim.waitForURL(`${stack.origin}/login`);
      await victim.goto(`http://127.0.0.1:${(planter.address() as AddressInfo).port}/`);
      await landed;
      expect(await victim.textContent('main')).toContain('sent from another site');
      expect((await fresh.cookies()).some((c) => c.name === 'unigate_session')).toBe(false);
    } finally {
      await fresh.close();
      planter.close();
    }
  });

  it('shows the call in the usage per day and model and in the recent requests, and fits a phone', async () => {
    await eventually(
      async () => {
        await page.goto(`${stack.origin}/dashboard`);
        return (await page.textContent('main'))!;
      },
      (text) => text.includes('No usage yet.') === false,
    );
    const today = new Date().toISOString().slice(0, 10);
    const usageRow = page.locator('#usage tbody tr').first();
    expect(await usageRow.locator('td').nth(0).textContent()).toBe(today);
    expect(await usageRow.locator('td').nth(1).textContent()).toBe(MODEL);
    expect(await usageRow.locator('td').nth(2).textContent()).toBe('1');
    expect(await page.locator('#recent tbody tr').count()).toBe(1);
    expect(await page.textContent('#balance')).not.toBe('$5.00');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await shot('3-usage-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('lists a video task made with the key, links its result, and shows the secret its webhook is signed with', async () => {
    const hooks: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        hooks.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const webhook_url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const res = await fetch(`${stack.baseURL}/videos/generations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(videoBody(VIDEO_MODEL, 'a lighthouse on the dashboard [sim:polls=1]', { webhook_url })),
      });
      expect(res.status).toBe(202);
      const task = (await res.json()) as { id: string };
      const row = page.locator(`#videos tr[data-task-id="${task.id}"]`);
      const cell = (i: number) => row.locator('td').nth(i).textContent();
      await eventually(
        async () => {
          await page.goto(`${stack.origin}/dashboard`);
          return (await row.count()) ? await cell(2) : 'not listed';
        },
        (status) => status === 'succeeded',
      );
      expect(await cell(0)).toBe(task.id);
      expect(await cell(1)).toBe(VIDEO_MODEL);
      expect(await cell(3)).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      // The result link opens the kept MP4 in the browser's session.
      const video = await page.request.get(new URL((await row.locator('a').getAttribute('href'))!, page.url()).href);
      expect(video.status()).toBe(200);
      expect((await video.body()).subarray(4, 8).toString('latin1')).toBe('ftyp');

      const secret = (await page.textContent('#webhook-secret code'))!.trim();
      expect(secret).toMatch(/^whsec_/);
      expect(await page.textContent('#webhook-secret')).toContain('webhook-signature');
      await eventually(
        async () => hooks.length,
        (n) => n >= 1,
      );
      const payload = new Webhook(secret).verify(hooks[0]!.body, hooks[0]!.headers as Record<string, string>);
      expect(payload).toMatchObject({ type: 'video.task.succeeded', data: { id: task.id } });
      await shot('4-video-task');
    } finally {
      receiver.close();
    }
  });

  it('refuses a POST without the CSRF token, even with the session cookie', async () => {
    const cookie = `unigate_session=${await sessionCookie()}`;
    expect((await fetch(`${other()}/dashboard`, { redirect: 'manual', headers: { cookie } })).status).toBe(200);
    const post = (path: string, body: string) =>
      fetch(`${other()}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
    expect((await post('/dashboard/keys', 'name=forged')).status).toBe(403);
    expect((await post('/dashboard/keys', 'name=forged&_csrf=wrong')).status).toBe(403);
    expect((await post('/login', `email=${encodeURIComponent(email)}&password=x`)).status).toBe(403);
    await page.goto(`${stack.origin}/dashboard`);
    // The key made above, and the one made and revoked by the resubmission test: no forged one.
    expect(await page.locator('#keys tbody tr').count()).toBe(2);
    expect(await page.locator('#keys tbody tr:has-text("forged")').count()).toBe(0);
  });

  it('revokes the key; the openai client is refused with 401', async () => {
    await submit('#keys button.danger');
    expect(await page.textContent('#keys tbody tr')).toContain('revoked');
    await shot('5-key-revoked');
    const status = await eventually(
      () =>
        client()
          .models.list()
          .then(
            () => 200,
            (err: { status?: number }) => err.status ?? 0,
          ),
      (s) => s === 401,
    );
    expect(status).toBe(401);
    await expect(client().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({
      status: 401,
    });
  });

  it('refuses the session cookie replayed after logout', async () => {
    const old = await sessionCookie();
    const csrf = await page.getAttribute('form[action="/dashboard/keys"] input[name=_csrf]', 'value');
    await submit('header button');
    expect(new URL(page.url()).pathname).toBe('/login');
    const headers = { cookie: `unigate_session=${old}`, 'content-type': 'application/x-www-form-urlencoded' };
    const get = await fetch(`${other()}/dashboard`, { redirect: 'manual', headers });
    expect(get.status).toBe(303);
    expect(get.headers.get('location')).toBe('/login');
    const post = await fetch(`${other()}/dashboard/keys`, {
      method: 'POST',
      redirect: 'manual',
      headers,
      body: `_csrf=${csrf}&name=replayed`,
    });
    expect(post.status).toBe(401);
  });

  it('answers 429 after repeated failed log-ins for one email', async () => {
    const target = `victim.${Date.now()}@example.com`;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      await page.goto(`${stack.edges[i % stack.edges.length].origin}/login`);
      await page.fill('#email', target);
      await page.fill('#password', `guess-${i}`);
      statuses.push((await submit('main button[type=submit]'))!);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // Another email from the same address is not blocked.
    await page.fill('#email', email);
    await page.fill('#password', password);
    expect(await submit('main button[type=submit]')).toBe(200);
  });
}
