#!/usr/bin/env node
/**
 * A deployment's smoke test (the chart's `helm test` pod runs it): every workload answers ready, and
 * with an API key the edge serves it the model list and its balance, which takes the key lookup
 * through billing and the catalogue. Free: no upstream is called. Plain Node, no dependencies.
 *
 *   UNIGATE_READY_URLS  name=url pairs, comma-separated, each a workload's /health/ready
 *   UNIGATE_EDGE_URL    the edge's origin, e.g. http://unigate-edge:80
 *   UNIGATE_API_KEY     optional: an sk- key (the chart's bootstrap key)
 *
 * Prints one line per check; exits 1 if any failed, after trying them all.
 */
'use strict';

const TIMEOUT_MS = 10_000;

async function get(url, headers = {}) {
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(TIMEOUT_MS) });
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body };
}

/** Runs `check`; a failure is its message. */
async function attempt(name, check) {
  try {
    const detail = await check();
    process.stdout.write(`ok    ${name}${detail ? `: ${detail}` : ''}\n`);
    return true;
  } catch (err) {
    // fetch's own message is "fetch failed"; its cause says why (ECONNREFUSED, ENOTFOUND, a timeout).
    const cause = err && err.cause ? ` (${err.cause.code || err.cause.message})` : '';
    process.stdout.write(`FAIL  ${name}: ${err instanceof Error ? err.message : String(err)}${cause}\n`);
    return false;
  }
}

function expectStatus(res, status) {
  if (res.status !== status) throw new Error(`HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
}

async function main() {
  const readyUrls = (process.env.UNIGATE_READY_URLS || '')
    .split(',')
    .map((pair) => pair.trim())
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      return at > 0 ? [pair.slice(0, at), pair.slice(at + 1)] : [pair, pair];
    });
  const edge = (process.env.UNIGATE_EDGE_URL || '').replace(/\/+$/, '');
  const key = process.env.UNIGATE_API_KEY || '';
  if (readyUrls.length === 0 && !edge) {
    process.stdout.write('FAIL  nothing to check: set UNIGATE_READY_URLS and UNIGATE_EDGE_URL\n');
    return false;
  }

  const results = [];
  for (const [name, url] of readyUrls) {
    results.push(await attempt(`${name} ready`, async () => expectStatus(await get(url), 200)));
  }
  if (edge && key) {
    const auth = { authorization: `Bearer ${key}` };
    results.push(
      await attempt('GET /v1/models', async () => {
        const res = await get(`${edge}/v1/models`, auth);
        expectStatus(res, 200);
        const count = Array.isArray(res.body && res.body.data) ? res.body.data.length : 0;
        if (count === 0) throw new Error('the key may use no model');
        return `${count} models`;
      }),
    );
    results.push(
      await attempt('GET /v1/dashboard/billing/subscription', async () => {
        const res = await get(`${edge}/v1/dashboard/billing/subscription`, auth);
        expectStatus(res, 200);
        return `hard limit ${res.body.hard_limit_usd} USD`;
      }),
    );
  } else if (edge) {
    process.stdout.write('skip  the API checks: no UNIGATE_API_KEY (the chart passes its bootstrap key when it has one)\n');
  }
  return results.every(Boolean);
}

main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (err) => {
    process.stdout.write(`FAIL  ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
