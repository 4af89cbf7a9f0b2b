/**
 * The providers package loads only the part of undici it uses (undici-core.ts): undici's index, with
 * fetch, WebSocket, the cache and the mocks, costs every process ~8 MiB. Checked in a fresh Node process
 * on the built package, as a service loads it: upstream calls, guarded fetches and webhooks work, and
 * the classes are undici's own (a new undici layout fails here, not in production).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '@unigate/testing';

const PROVIDERS = join(ROOT, 'packages', 'providers', 'dist', 'index.js');

const SCRIPT = `
const http = require('node:http');
const providers = require(process.argv[1]);
const indexLoaded = () => Object.keys(require.cache).some((m) => /[\\\\/]node_modules[\\\\/]undici[\\\\/]index\\.js$/.test(m));
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => res.end(JSON.stringify({ method: req.method, url: req.url, body })));
});
server.listen(0, '127.0.0.1', async () => {
  const origin = 'http://127.0.0.1:' + server.address().port;
  const client = new providers.HttpClient();
  const pooled = await client.request({ method: 'POST', url: origin + '/v1/x?a=1', headers: {}, body: 'hi' });
  const streamed = await pooled.body.text();
  const whole = await client.request({ method: 'GET', url: origin + '/whole', headers: {}, whole: true });
  const wholeText = await whole.body.text();
  const fetched = await providers.safeFetch(origin + '/f?b=2', { trustedOrigins: [origin], maxBytes: 1000, timeoutMs: 5000 });
  const fetchedText = (await providers.readAll(fetched.body)).toString();
  const posted = await providers.safePost(origin + '/hook', { headers: {}, body: 'event', timeoutMs: 5000, allowPrivate: true });
  await client.close();
  const before = indexLoaded();
  const core = require(process.argv[2]);
  const undici = require('undici');
  server.close();
  process.stdout.write(JSON.stringify({
    before,
    streamed, wholeText, fetchedText, posted,
    samePool: core.Pool === undici.Pool,
    sameAgent: core.Agent === undici.Agent,
  }));
});
`;

test('upstream calls, guarded fetches and webhooks go through undici without loading its index', () => {
  const core = join(ROOT, 'packages', 'providers', 'dist', 'http', 'undici-core.js');
  const out = JSON.parse(execFileSync(process.execPath, ['-e', SCRIPT, PROVIDERS, core], { encoding: 'utf8' })) as Record<string, unknown>;
  expect(out).toEqual({
    before: false,
    streamed: JSON.stringify({ method: 'POST', url: '/v1/x?a=1', body: 'hi' }),
    wholeText: JSON.stringify({ method: 'GET', url: '/whole', body: '' }),
    fetchedText: JSON.stringify({ method: 'GET', url: '/f?b=2', body: '' }),
    posted: 200,
    samePool: true,
    sameAgent: true,
  });
}, 30_000);
