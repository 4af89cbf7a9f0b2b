#!/usr/bin/env node
/**
 * The `proxy` target: one bare Node hop and nothing else. node:http takes the request, undici forwards
 * its bytes to the simulator on pooled keep-alive connections, and the answer goes back chunk by chunk
 * (a stream's events as they arrive). No parsing, no auth, no billing, no logs. What it adds to the
 * direct calls is the floor of any Node.js gateway on this machine: one more process woken twice per
 * request (and, on shared cores, one more place for the scheduler to make a request wait), which a
 * p99 target here must be read against.
 *
 *   node floor-proxy.mjs --port=<port> --upstream=<origin>     GET /ready answers 200 once listening
 */
import http from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// undici is the providers package's dependency (the one Unigate forwards with), hoisted to the root.
const { Pool } = createRequire(join(ROOT, 'package.json'))('undici');

const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const port = Number(arg('port'));
const upstream = arg('upstream');
if (!port || !upstream) throw new Error('usage: floor-proxy.mjs --port=<port> --upstream=<origin>');

const pool = new Pool(upstream, { connections: 128 });

async function forward(req, res) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const answer = await pool.request({
    path: req.url,
    method: req.method,
    headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
    body: Buffer.concat(chunks),
  });
  res.writeHead(answer.statusCode, { 'content-type': answer.headers['content-type'] ?? 'application/json' });
  for await (const chunk of answer.body) res.write(chunk);
  res.end();
}

http
  .createServer((req, res) => {
    if (req.url === '/ready') return void res.end('ok');
    forward(req, res).catch((err) => {
      if (!res.headersSent) res.writeHead(502);
      res.end(String(err.message));
    });
  })
  .listen(port, '127.0.0.1');
