/**
 * Why useLeanAsyncResourceBind exists, checked on a real Fastify app in a fresh Node process: with
 * Node's own bind, requests with a body leave their objects to be promoted by young-generation
 * collections; with the lean bind they die young. Counted in bytes V8 reports (--trace-gc-nvp), not
 * timed. If a Node release stops promoting them, the first expectation fails and the workaround can go.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '@unigate/testing';

const PLATFORM = join(ROOT, 'packages', 'platform', 'dist', 'index.js');

const APP = `
if (process.argv[2] === 'lean') require(process.argv[1]).useLeanAsyncResourceBind();
const http = require('node:http');
const app = require('fastify')();
app.post('/v1/chat/completions', async (req) => ({ id: 'x', model: req.body.model, echo: req.body.messages.map((m) => ({ ...m })) }));
const payload = JSON.stringify({ model: 'omega-k3', messages: [{ role: 'user', content: 'Say hello in five words.' }], max_tokens: 32 });
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const send = (port) =>
  new Promise((resolve, reject) => {
    const req = http.request({ port, method: 'POST', path: '/v1/chat/completions', agent, headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', reject);
    req.end(payload);
  });
app.listen({ port: 0, host: '127.0.0.1' }).then(async () => {
  const { port } = app.server.address();
  for (let i = 0; i < 20000; i++) await send(port);
  process.exit(0);
});
`;

/** Bytes promoted by scavenges while 20,000 requests run one after another over keep-alive HTTP. */
function promotedBytes(mode: 'node' | 'lean'): number {
  const out = execFileSync(process.execPath, ['--trace-gc-nvp', '-e', APP, PLATFORM, mode], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  return out
    .split('\n')
    .filter((line) => line.includes('gc=s '))
    .reduce((sum, line) => sum + Number(/ promoted=(\d+)/.exec(line)?.[1] ?? 0), 0);
}

test("requests' objects die young with the lean bind, and are promoted with Node 20's", () => {
  const node = promotedBytes('node');
  const lean = promotedBytes('lean');
  // Measured: ~98 MB with Node's bind and ~12 MB with the lean one (the client, in the same process,
  // promotes some of its own).
  expect(node).toBeGreaterThan(20_000_000);
  expect(lean).toBeLessThan(node / 4);
}, 120_000);
