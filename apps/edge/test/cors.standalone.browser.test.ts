/**
 * CORS in a real browser (Chromium): a page served from another origin loads the official `openai`
 * client (its ESM build) and calls the gateway with a key, as a browser chat app would, and sends
 * /v1/messages with the headers `@anthropic-ai/sdk` sends from a browser. By default (UNIGATE_CORS_ORIGINS unset: `*`) every page
 * may; with a list, only those origins, and a page of another origin gets nothing it can read.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './support/browser';
import { ROOT, startStandalone, type Stack } from './support/stacks';

const PACKAGES: Record<string, string> = {
  '/openai/': join(ROOT, 'node_modules', 'openai'),
};
const PAGE = '<!doctype html><title>app</title>';

/** A site of its own origin: an empty page, and the openai SDK's files under /openai/. */
async function startSite(): Promise<{ origin: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    const prefix = Object.keys(PACKAGES).find((p) => path.startsWith(p));
    if (!prefix) return void res.writeHead(404).end();
    const file = normalize(join(PACKAGES[prefix], path.slice(prefix.length)));
    if (!file.startsWith(PACKAGES[prefix])) return void res.writeHead(403).end();
    readFile(file).then(
      (body) =>
        res
          .writeHead(200, { 'content-type': ['.mjs', '.js'].includes(extname(file)) ? 'text/javascript' : 'application/octet-stream' })
          .end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

interface Outcome {
  ok: boolean;
  status?: number;
  text?: string;
  requestId?: string | null;
  error?: string;
}

/**
 * `body` run in the page as an async function of `args`. Sent as text: the test's own compiler would
 * turn a dynamic import() in a function into a require() the page does not have.
 */
function inPage<T>(page: Page, body: string, args: Record<string, unknown>): Promise<T> {
  return page.evaluate(`(async (args) => { ${body} })(${JSON.stringify(args)})`) as Promise<T>;
}

/** In the page: the openai SDK's chat completion (or stream), or its error. */
function openaiCall(page: Page, baseURL: string, apiKey: string, stream: boolean): Promise<Outcome> {
  return inPage(
    page,
    `
    const { default: OpenAI } = await import('/openai/index.mjs');
    const client = new OpenAI({ baseURL: args.baseURL, apiKey: args.apiKey, dangerouslyAllowBrowser: true, maxRetries: 0 });
    const body = { model: 'omega-k3', max_tokens: 8, messages: [{ role: 'user', content: 'hi from a page' }] };
    try {
      if (args.stream) {
        let text = '';
        for await (const chunk of await client.chat.completions.create({ ...body, stream: true })) text += chunk.choices[0]?.delta?.content ?? '';
        return { ok: true, text };
      }
      const { data, response } = await client.chat.completions.create(body).withResponse();
      return { ok: true, text: data.choices[0].message.content, requestId: response.headers.get('x-request-id') };
    } catch (err) {
      return { ok: false, status: err.status, error: err.constructor.name + ': ' + err.message };
    }`,
    { baseURL, apiKey, stream },
  );
}

/**
 * The headers `@anthropic-ai/sdk` sends from a browser (`dangerouslyAllowBrowser`), captured from the
 * SDK itself: its ESM build needs a bundler to load in a page (a CommonJS dependency, Node-only
 * modules behind its package's `browser` map), so the page sends its request with them.
 */
async function anthropicBrowserHeaders(apiKey: string): Promise<Record<string, string>> {
  let seen: Record<string, string> = {};
  const capture = createServer((req, res) => {
    seen = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    req
      .resume()
      .on('end', () =>
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"type":"error","error":{"type":"x","message":"x"}}'),
      );
  });
  await new Promise<void>((r) => capture.listen(0, '127.0.0.1', r));
  try {
    const baseURL = `http://127.0.0.1:${(capture.address() as AddressInfo).port}`;
    const client = new Anthropic({ baseURL, apiKey, dangerouslyAllowBrowser: true, maxRetries: 0 });
    await client.messages.create({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'x' }] }).catch(() => undefined);
  } finally {
    capture.close();
  }
  // What a page's fetch may not set (the browser does), or sets itself.
  for (const name of ['host', 'connection', 'content-length', 'user-agent', 'accept-encoding', 'accept-language']) delete seen[name];
  for (const name of Object.keys(seen)) if (name.startsWith('sec-')) delete seen[name];
  expect(seen).toMatchObject({ 'anthropic-dangerous-direct-browser-access': 'true', 'anthropic-version': expect.any(String) });
  expect(Object.values(seen).some((v) => v.includes(apiKey))).toBe(true); // x-api-key, or a bearer token
  return seen;
}

/** In the page: POST /v1/messages with the Anthropic SDK's browser headers. */
function anthropicCall(page: Page, origin: string, headers: Record<string, string>): Promise<Outcome> {
  return inPage(
    page,
    `
    try {
      const res = await fetch(args.origin + '/v1/messages', {
        method: 'POST',
        headers: args.headers,
        body: JSON.stringify({ model: 'sigma-sonnet-4-6', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
      });
      const message = await res.json();
      return { ok: res.ok, status: res.status, text: message.content?.[0]?.text, requestId: res.headers.get('x-request-id') };
    } catch (err) {
      return { ok: false, error: String(err) };
    }`,
    { origin, headers },
  );
}

let browser: Browser;
const sites: Server[] = [];
const stacks: Stack[] = [];
beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  for (const s of sites) s.close();
  await Promise.all(stacks.map((s) => s.stop()));
});

async function pageAt(origin: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${origin}/`);
  return page;
}

async function site(): Promise<string> {
  const { origin, server } = await startSite();
  sites.push(server);
  return origin;
}

describe('by default (UNIGATE_CORS_ORIGINS unset)', () => {
  let stack: Stack;
  let page: Page;
  beforeAll(async () => {
    stack = await startStandalone();
    stacks.push(stack);
    page = await pageAt(await site());
  }, 120_000);

  it("a page of any origin calls the API with the official SDKs, reading the answer's headers; a refused key is an error it can read", async () => {
    const answer = await openaiCall(page, stack.baseURL, stack.apiKey, false);
    expect(answer).toMatchObject({ ok: true, text: expect.any(String), requestId: expect.stringMatching(/^req_/) });
    expect(await openaiCall(page, stack.baseURL, stack.apiKey, true)).toMatchObject({ ok: true, text: expect.any(String) });
    expect(await anthropicCall(page, stack.origin, await anthropicBrowserHeaders(stack.apiKey))).toMatchObject({
      ok: true,
      status: 200,
      text: expect.any(String),
      requestId: expect.stringMatching(/^req_/),
    });
    // The 401 carries the CORS headers too: the page sees the status, not a network failure.
    expect(await openaiCall(page, stack.baseURL, 'sk-not-a-key-of-this-gateway-000000', false)).toMatchObject({ ok: false, status: 401 });
  });

  it('answers the preflight of the API only: the admin API and the dashboard pages get none', async () => {
    const preflight = (path: string) =>
      fetch(`${stack.origin}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://app.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization',
        },
      });
    const api = await preflight('/v1/chat/completions');
    expect([api.status, api.headers.get('access-control-allow-origin'), api.headers.get('access-control-allow-headers')]).toEqual([
      204,
      '*',
      'authorization',
    ]);
    expect(api.headers.get('access-control-allow-credentials')).toBeNull();
    for (const path of ['/admin/v1/accounts', '/dashboard', '/login']) {
      const res = await preflight(path);
      expect([path, res.status, res.headers.get('access-control-allow-origin')]).toEqual([path, 404, null]);
    }
    // A request from a server (no Origin) gets no CORS headers at all.
    const plain = await fetch(`${stack.baseURL}/models`, { headers: { authorization: `Bearer ${stack.apiKey}` } });
    expect([plain.status, plain.headers.get('access-control-allow-origin')]).toEqual([200, null]);
  });
});

describe('with UNIGATE_CORS_ORIGINS listing one origin', () => {
  let stack: Stack;
  let allowed: Page;
  let other: Page;
  beforeAll(async () => {
    const [allowedOrigin, otherOrigin] = [await site(), await site()];
    stack = await startStandalone({ UNIGATE_CORS_ORIGINS: `https://elsewhere.example, ${allowedOrigin}` });
    stacks.push(stack);
    allowed = await pageAt(allowedOrigin);
    other = await pageAt(otherOrigin);
  }, 120_000);

  it('serves a page of that origin, and a page of another origin reads nothing: the browser blocks it', async () => {
    expect(await openaiCall(allowed, stack.baseURL, stack.apiKey, false)).toMatchObject({
      ok: true,
      requestId: expect.stringMatching(/^req_/),
    });
    const blocked = await openaiCall(other, stack.baseURL, stack.apiKey, false);
    expect(blocked).toMatchObject({ ok: false, error: expect.stringMatching(/^APIConnectionError/) });
    expect(blocked.status).toBeUndefined();
  });
});
