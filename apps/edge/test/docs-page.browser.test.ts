/**
 * /docs in a real browser (Debian's Chromium): the page renders every operation of /openapi.json
 * under its own Content-Security-Policy with no script error, fits a phone-width screen, and its
 * Try it form calls the API with the key typed in. The edge runs in-process; its ports answer the
 * calls the page makes (the model list, a video task by the id typed into its path parameter).
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { chatCompletionsSpec, errors, hashApiKey, type ModelInfo, type VideoTask } from '@unigate/contracts';
import { createLogger } from '@unigate/platform';
import type { Browser } from 'playwright-core';
import { createEdgeApp } from '../src/create-edge-app';
import { artifactPath, launchChromium } from './support/browser';
import { TEST_PRINCIPAL } from './support/principal';

const KEY = 'sk-docs-page-test';
const MODEL = {
  id: 'docs-test-model',
  family: 'gamma',
  kind: 'chat',
  owned_by: 'test',
  created: 1,
  prices: { input_per_mtok: 1, output_per_mtok: 1 },
} as ModelInfo;

/** The one video task the video task port knows; the id has a character the path must encode. */
const TASK: VideoTask = {
  id: 'vtask docs',
  object: 'video.generation.task',
  status: 'succeeded',
  model: 'beta2.6-t2v',
  created_at: 1,
  updated_at: 2,
  upstream_id: null,
};

describe('/docs in Chromium', () => {
  let app: NestFastifyApplication;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    app = (await createEdgeApp({
      ports: {
        billing: { authenticate: async (hash: string) => (hash === hashApiKey(KEY) ? TEST_PRINCIPAL : null) } as never,
        catalog: { list: async () => [MODEL] } as never,
        services: { chat: {} as never, media: {} as never, video: {} as never },
        videoTasks: {
          lookup: async (accountId: string, id: string) => {
            if (accountId !== TEST_PRINCIPAL.account_id || id !== TASK.id) throw errors.notFound(`Video task ${id}`);
            return TASK;
          },
        } as never,
      },
      logger: createLogger('docs-page-test'),
      instanceId: 'docs-page-test',
      reservations: { checkReady: async () => undefined } as never,
      adminToken: 'x'.repeat(32),
    })) as NestFastifyApplication;
    await app.listen(0, '127.0.0.1');
    origin = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('renders every operation with no script or CSP error, fits a phone, and Try it calls the API with the key', async () => {
    const doc = (await (await fetch(`${origin}/openapi.json`)).json()) as { paths: Record<string, object> };
    const operations = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(err.message));
    page.on('console', (msg) => msg.type() === 'error' && problems.push(msg.text()));

    await page.goto(`${origin}/docs`);
    await page
      .locator('#ops section')
      .nth(operations - 1)
      .waitFor();
    expect(await page.locator('#ops section').count()).toBe(operations);
    expect(await page.locator('nav a').count()).toBe(operations);
    await expect(page.locator('#v1_models h2').textContent()).resolves.toContain('/v1/models');
    // The chat request's fields are rendered from its schema.
    await expect(page.locator('#chat_completions table').first().textContent()).resolves.toContain('messages');
    // Try it starts from the spec's own example request.
    expect(JSON.parse(await page.locator('#chat_completions textarea').inputValue())).toEqual(chatCompletionsSpec.example);
    await page.screenshot({ path: artifactPath('docs-desktop.png'), fullPage: false });

    await page.fill('#key', KEY);
    const models = page.locator('#v1_models');
    await models.locator('details.try > summary').click();
    await models.locator('details.try button').click();
    // A locator wait, not waitForFunction: the page's CSP forbids eval, which Playwright's polling of a
    // string predicate needs once the first check is not yet true (a fresh-clone CI run failed on it).
    await models.locator('.out').filter({ hasText: /^200 / }).waitFor({ timeout: 10_000 });
    expect(await models.locator('.out').textContent()).toContain('"id": "docs-test-model"');

    // A path parameter is an input of its own; what is typed in fills the path, encoded.
    const lookup = page.locator('#videos_generations_get');
    await expect(lookup.locator('h3').first().textContent()).resolves.toBe('Parameters');
    await lookup.locator('details.try > summary').click();
    await lookup.locator('details.try input[aria-label="id"]').fill(TASK.id);
    await lookup.locator('details.try button').click();
    await lookup.locator('.out').filter({ hasText: /^200 / }).waitFor({ timeout: 10_000 });
    expect(await lookup.locator('.out').textContent()).toContain('"status": "succeeded"');

    // A multipart endpoint's Try it sends a form with the chosen files (a JSON body was refused 400).
    // The answer is the browser's own (page.route): what is checked is what the page sends.
    let sent: { type?: string; body?: string } = {};
    await page.route('**/v1/images/edits', (route) => {
      sent = { type: route.request().headers()['content-type'], body: route.request().postDataBuffer()?.toString('latin1') };
      return route.fulfill({ status: 200, contentType: 'application/json', body: '{"data":[]}' });
    });
    const edits = page.locator('#images_edits');
    await edits.locator('details.try > summary').click();
    await edits
      .locator('details.try input[type=file]')
      .setInputFiles({ name: 'cat.png', mimeType: 'image/png', buffer: Buffer.from('89504e470d0a1a0a', 'hex') });
    await edits.locator('details.try button').click();
    await edits.locator('.out').filter({ hasText: /^200 / }).waitFor({ timeout: 10_000 });
    expect(sent.type).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent.body).toContain('name="image"; filename="cat.png"');
    expect(sent.body).toContain('name="prompt"');
    // An audio answer (speech) is a player, not bytes printed as text; the page's CSP lets it play.
    await page.route('**/v1/audio/speech', (route) =>
      route.fulfill({ status: 200, contentType: 'audio/mpeg', body: Buffer.from('fffb9064000000000000', 'hex') }),
    );
    const speech = page.locator('#audio_speech');
    await speech.locator('details.try > summary').click();
    await speech.locator('details.try button').click();
    await speech.locator('.out').filter({ hasText: /^200 / }).waitFor({ timeout: 10_000 });
    expect(await speech.locator('.out').textContent()).toContain('audio/mpeg, 10 bytes');
    expect(await speech.locator('.media audio').getAttribute('src')).toMatch(/^blob:/);

    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    // Every schema opened to its deepest level still fits (it overflowed to 885 px).
    await page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })");
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.screenshot({ path: artifactPath('docs-phone.png'), fullPage: false });
    expect(problems).toEqual([]);
  });
});
