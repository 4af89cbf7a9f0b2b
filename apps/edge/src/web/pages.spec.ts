import type { VideoTask } from '@unigate/contracts';
import type { DashboardView } from './pages';
import { dashboardPage, esc, otherUnits, signupPage } from './pages';

const view: DashboardView = {
  user: { id: 'u', email: '<b>@x.io', account_id: 'a' },
  csrf: 'tok"en',
  account: { id: 'a', name: 'n', balance_usd: 4.999979, reserved_usd: 0 },
  keys: [{ id: 'k1', name: '<script>', prefix: 'sk-abc', created_at: '2026-01-02T00:00:00.000Z', revoked_at: null }],
  usage: [],
  recent: [],
  video: null,
  once: 'once-token-once-token',
  baseUrl: 'https://gw.example/v1',
};

const task = (over: Partial<VideoTask>): VideoTask => ({
  id: 'vtask-1',
  object: 'video.generation.task',
  status: 'queued',
  model: 'beta2.6-t2v',
  created_at: Date.UTC(2026, 0, 2, 3, 4, 5) / 1000,
  updated_at: Date.UTC(2026, 0, 2, 3, 4, 5) / 1000,
  upstream_id: null,
  ...over,
});
const withVideo = (tasks: VideoTask[], webhookSecret = 'whsec_abc') => dashboardPage({ ...view, video: { tasks, webhookSecret } });
/** The HTML of the element with this id (a table row's tbody or a card's block), for focused assertions. */
const section = (html: string, id: string) =>
  html.slice(html.indexOf(`id="${id}"`), html.indexOf('</section>', html.indexOf(`id="${id}"`)));

describe('dashboard pages', () => {
  it('escapes everything a user typed', () => {
    expect(esc(`<a href="x">'&`)).toBe('&#60;a href=&#34;x&#34;&#62;&#39;&#38;');
    const html = dashboardPage(view);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>@x.io');
    expect(html).toContain('value="tok&#34;en"');
  });

  it('shows the balance to the micro-dollar and whole amounts with cents', () => {
    expect(dashboardPage(view)).toContain('id="balance">$4.999979<');
    expect(dashboardPage({ ...view, account: { ...view.account, balance_usd: 5 } })).toContain('id="balance">$5.00<');
  });

  it('puts the CSRF token in every form and no inline script or style', () => {
    const html = dashboardPage(view) + signupPage({ csrf: 't' });
    const forms = html.match(/<form /g)!.length;
    expect(html.match(/name="_csrf"/g)!.length).toBe(forms);
    expect(html).not.toMatch(/<script|style=/);
  });

  it('lists video tasks with id, model, status, UTC creation time, and the link of a succeeded one only', () => {
    const html = withVideo([
      task({ id: 'vtask-done', status: 'succeeded', content: { video_url: '/v1/files/abc?sig=1&x=2' } }),
      task({ id: 'vtask-run', status: 'running', model: 'beta2.7-t2v' }),
      task({ id: 'vtask-bad', status: 'failed', error: { code: 'InternalError.Algo', message: 'no' } }),
    ]);
    const videos = section(html, 'videos');
    expect(videos).toContain(
      '<tr data-task-id="vtask-done"><td class="name"><code>vtask-done</code></td><td>beta2.6-t2v</td><td>succeeded</td><td>2026-01-02 03:04:05</td>',
    );
    expect(videos).toContain('<a href="/v1/files/abc?sig=1&#38;x=2">Video</a>');
    expect(videos).toContain('<td>beta2.7-t2v</td><td>running</td>');
    expect(videos).toContain('InternalError.Algo');
    expect(videos.match(/<a /g)).toHaveLength(1);
  });

  it('links no result that is not a web address, and escapes what the upstream or user sent', () => {
    const html = withVideo([
      task({ id: 'vtask-<i>', status: 'succeeded', model: '<img>', content: { video_url: 'javascript:alert(1)' } }),
      task({ status: 'succeeded', content: { video_url: '//evil.example/x' } }),
    ]);
    expect(html).not.toContain('javascript:');
    expect(html).not.toContain('//evil.example');
    expect(html).not.toMatch(/<img>|<i>/);
    expect(html).toContain('data-task-id="vtask-&#60;i&#62;"');
  });

  it('says when there are no video tasks yet and shows the webhook signing secret with how to verify it', () => {
    const html = withVideo([], 'whsec_Zm9v+/bar=');
    expect(html).toContain('<p class="muted" id="videos">No video tasks yet.</p>');
    const secret = section(html, 'webhook-secret');
    expect(secret).toContain('<code class="secret">whsec_Zm9v+/bar=</code>');
    expect(secret).toMatch(/Standard Webhooks.*webhook-id, webhook-timestamp and webhook-signature/);
  });

  it('shows both video cards as unavailable when the gateway has no video service (or it failed)', () => {
    const html = dashboardPage(view);
    expect(html).toContain('<p class="muted" id="videos">Video is not available right now.</p>');
    expect(html).toContain('<p class="muted" id="webhook-secret">Video is not available right now.</p>');
    expect(html).not.toContain('whsec_');
    expect(html).toContain('id="balance"');
  });
});

describe('recent requests', () => {
  it('say what a call was billed for besides tokens (speech, video, images), not only 0 in and 0 out', () => {
    expect(otherUnits({ input_tokens: 10, output_tokens: 5 })).toBe('');
    expect(otherUnits({ characters: 1200 })).toBe('1200 characters');
    expect(otherUnits({ video_seconds: 5, video_resolution: '720p' })).toBe('5 s of video (720p)');
    expect(otherUnits({ images: 1, image_size: '1024x1024', image_input_tokens: 300 })).toBe('1 image (1024x1024), 300 image input tokens');
    const entry = {
      id: 'e',
      request_id: 'req_1',
      model: 'alpha3-tts-flash',
      kind: 'speech',
      input_tokens: 0,
      cached_input_tokens: 0,
      output_tokens: 0,
      units: { characters: 42 },
      cost_usd: 0.000042,
      cost_micros: 42,
      created_at: '2026-01-02T03:04:05.000Z',
    };
    expect(dashboardPage({ ...view, recent: [entry] })).toContain('<td>42 characters</td>');
  });
});
