/** The dashboard's server-rendered pages: plain HTML and one stylesheet, no script. */
import {
  microsToUsd,
  type AccountView,
  type DailyModelUsage,
  type KeyView,
  type LedgerEntryView,
  type Usage,
  type UserView,
  type VideoTask,
} from '@unigate/contracts';
import type { VideoView } from './video-view';

export function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Dollars to the micro-dollar, trailing zeros after the cents dropped: $5.00, $4.999979. */
const dollars = (amount: number) => `$${amount.toFixed(6).replace(/0{1,4}$/, '')}`;
const usd = (micros: number) => dollars(microsToUsd(micros));
/** An ISO time as `2026-01-02 03:04:05` (UTC). */
const utc = (iso: string) => iso.slice(0, 19).replace('T', ' ');
/** Only web links (absolute http(s) or this origin's paths) become hrefs: never `javascript:` and the like. */
const isWebLink = (url: string) => /^(https?:\/\/|\/(?!\/))/i.test(url);

function layout(title: string, body: string, user?: { email: string; csrf: string }): string {
  const nav = user
    ? `<span>${esc(user.email)} <form class="inline" method="post" action="/logout"><input type="hidden" name="_csrf" value="${esc(user.csrf)}"><button class="link" type="submit">Log out</button></form></span>`
    : `<a href="/login">Log in</a>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)} · Unigate</title><link rel="stylesheet" href="/web.css"></head>
<body><header><a class="brand" href="/dashboard">Unigate</a>${nav}</header><main>${body}</main></body></html>`;
}

const errorBox = (message?: string) => (message ? `<p class="error" role="alert">${esc(message)}</p>` : '');

export interface CredentialsForm {
  csrf: string;
  email?: string;
  error?: string;
}

export function signupPage(f: CredentialsForm & { closed?: string }): string {
  const form = f.closed
    ? `<p>${esc(f.closed)}</p>`
    : `<form method="post" action="/signup">
<input type="hidden" name="_csrf" value="${esc(f.csrf)}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required value="${esc(f.email ?? '')}">
<label for="password">Password (at least 8 characters)</label><input id="password" name="password" type="password" autocomplete="new-password" minlength="8" required>
<p><button type="submit">Create account</button></p></form>`;
  return layout(
    'Sign up',
    `<section class="card narrow"><h1>Create your account</h1>${errorBox(f.error)}${form}<p class="muted">Have an account? <a href="/login">Log in</a></p></section>`,
  );
}

export function loginPage(f: CredentialsForm): string {
  return layout(
    'Log in',
    `<section class="card narrow"><h1>Log in</h1>${errorBox(f.error)}<form method="post" action="/login">
<input type="hidden" name="_csrf" value="${esc(f.csrf)}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required value="${esc(f.email ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<p><button type="submit">Log in</button></p></form><p class="muted">No account yet? <a href="/signup">Sign up</a></p></section>`,
  );
}

export function messagePage(title: string, message: string): string {
  return layout(
    title,
    `<section class="card narrow"><h1>${esc(title)}</h1><p>${esc(message)}</p><p><a href="/login">Log in</a></p></section>`,
  );
}

export interface DashboardView {
  user: UserView;
  csrf: string;
  account: AccountView;
  keys: KeyView[];
  usage: DailyModelUsage[];
  recent: LedgerEntryView[];
  /** The video cards' data; null when this gateway has no video service or it did not answer. */
  video: VideoView | null;
  /** A key just created: its secret, shown this once. */
  created?: { id: string; key: string };
  /** The create-key form's one-time token: a resubmitted form (a reload) makes no second key. */
  once: string;
  /** The API's base URL as this page was reached (`https://host/v1`). */
  baseUrl: string;
  error?: string;
  notice?: string;
}

export function dashboardPage(v: DashboardView): string {
  const hidden = `<input type="hidden" name="_csrf" value="${esc(v.csrf)}">`;
  const created = v.created
    ? `<div class="notice" id="new-key">Your new key — copy it now, it is not shown again:<code class="secret">${esc(v.created.key)}</code></div>`
    : '';
  const keyRows = v.keys
    .map(
      (k) =>
        `<tr data-key-id="${esc(k.id)}"><td class="name">${esc(k.name ?? '—')}</td><td><code>${esc(k.prefix)}</code></td><td>${esc(k.created_at.slice(0, 10))}</td><td>${
          k.revoked_at
            ? `revoked ${esc(k.revoked_at.slice(0, 10))}`
            : `<form class="inline" method="post" action="/dashboard/keys/${esc(k.id)}/revoke">${hidden}<button class="danger" type="submit" aria-label="Revoke key ${esc(k.name ?? k.prefix)}">Revoke</button></form>`
        }</td></tr>`,
    )
    .join('');
  const maxCost = Math.max(1, ...v.usage.map((u) => u.cost_micros));
  const usageRows = v.usage
    .map(
      (u) =>
        `<tr><td>${esc(u.date)}</td><td>${esc(u.model)}</td><td class="num">${u.requests}</td><td class="num">${u.input_tokens + u.output_tokens}</td><td class="num">${usd(
          u.cost_micros,
        )}</td><td><meter min="0" max="${maxCost}" value="${u.cost_micros}"></meter></td></tr>`,
    )
    .join('');
  const recentRows = v.recent
    .map(
      (e) =>
        `<tr><td>${esc(utc(e.created_at))}</td><td>${esc(e.model)}</td><td class="num">${e.input_tokens}</td><td class="num">${e.output_tokens}</td><td>${esc(
          otherUnits(e.units),
        )}</td><td class="num">${usd(e.cost_micros)}</td><td class="muted">${esc(e.request_id)}</td></tr>`,
    )
    .join('');
  const table = (head: string, rows: string, empty: string, id: string) =>
    rows
      ? `<div class="table"><table id="${id}"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></div>`
      : `<p class="muted" id="${id}">${empty}</p>`;
  const videoUnavailable = (id: string) => `<p class="muted" id="${id}">Video is not available right now.</p>`;
  const videoRows = (v.video?.tasks ?? [])
    .map(
      (t) =>
        `<tr data-task-id="${esc(t.id)}"><td class="name"><code>${esc(t.id)}</code></td><td>${esc(t.model)}</td><td>${esc(t.status)}</td><td>${esc(
          utc(new Date(t.created_at * 1000).toISOString()),
        )}</td><td>${taskResult(t)}</td></tr>`,
    )
    .join('');
  const webhookSecret = (secret: string) =>
    `<div id="webhook-secret"><code class="secret">${esc(secret)}</code>
<p class="muted">Your video webhooks are signed with it: verify the Standard Webhooks headers webhook-id, webhook-timestamp and webhook-signature against the raw body (e.g. with the standardwebhooks library).</p></div>`;
  return layout(
    'Dashboard',
    `<h1>Dashboard</h1>${errorBox(v.error)}${v.notice ? `<p class="notice">${esc(v.notice)}</p>` : ''}
<section class="card"><h2>Balance</h2><div class="balance" id="balance">${dollars(v.account.balance_usd)}</div>
<p class="muted">${v.account.reserved_usd > 0 ? `${dollars(v.account.reserved_usd)} held by requests in flight. ` : ''}Account ${esc(v.account.id)}</p></section>
<section class="card"><h2>API keys</h2>${created}
<form class="row" method="post" action="/dashboard/keys">${hidden}<input type="hidden" name="_once" value="${esc(v.once)}"><label class="row-label" for="key-name">Key name (optional)</label><input type="text" id="key-name" name="name" maxlength="200"><button type="submit">Create key</button></form>
<p class="muted" id="base-url">Send it as <code>Authorization: Bearer sk-…</code> to the base URL <code>${esc(v.baseUrl)}</code> (the openai SDK's <code>baseURL</code>). <a href="/docs">API reference</a></p>
${table('<th>Name</th><th>Key</th><th>Created</th><th></th>', keyRows, 'No keys yet.', 'keys')}</section>
<section class="card"><h2>Usage per day and model (last 30 days)</h2>
${table('<th>Day</th><th>Model</th><th class="num">Requests</th><th class="num">Tokens</th><th class="num">Cost</th><th></th>', usageRows, 'No usage yet.', 'usage')}</section>
<section class="card"><h2>Recent requests</h2>
${table('<th>Time (UTC)</th><th>Model</th><th class="num">In</th><th class="num">Out</th><th>Also billed</th><th class="num">Cost</th><th>Request</th>', recentRows, 'No requests yet.', 'recent')}</section>
<section class="card"><h2>Video tasks</h2>
${v.video ? table('<th>Task</th><th>Model</th><th>Status</th><th>Created (UTC)</th><th>Result</th>', videoRows, 'No video tasks yet.', 'videos') : videoUnavailable('videos')}</section>
<section class="card"><h2>Webhook signing secret</h2>
${v.video ? webhookSecret(v.video.webhookSecret) : videoUnavailable('webhook-secret')}</section>`,
    { email: v.user.email, csrf: v.csrf },
  );
}

/**
 * What a call was billed for besides its tokens (images, seconds of video, characters of speech):
 * a speech or video call's tokens are 0, and its cost would otherwise seem to come from nothing.
 */
export function otherUnits(u: Usage): string {
  const parts: string[] = [];
  if (u.images) parts.push(`${u.images} image${u.images === 1 ? '' : 's'}${u.image_size ? ` (${u.image_size})` : ''}`);
  if (u.image_input_tokens) parts.push(`${u.image_input_tokens} image input tokens`);
  if (u.video_seconds) parts.push(`${u.video_seconds} s of video${u.video_resolution ? ` (${u.video_resolution})` : ''}`);
  if (u.characters) parts.push(`${u.characters} character${u.characters === 1 ? '' : 's'}`);
  return parts.join(', ');
}

/** A video task's result cell: the video's link once succeeded, the error code once failed. */
function taskResult(t: VideoTask): string {
  const url = t.content?.video_url;
  if (t.status === 'succeeded' && url && isWebLink(url)) return `<a href="${esc(url)}">Video</a>`;
  return t.error ? `<span class="muted">${esc(t.error.code)}</span>` : '';
}
