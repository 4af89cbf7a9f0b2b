#!/usr/bin/env node
/**
 * Container health check without curl (the runtime image has none): GET http://127.0.0.1:<port><path>,
 * exit 0 on 200. Port: PORT, else UNIGATE_SIM_PORT, else 8080. Path: first argument, default /health/ready.
 *   node deploy/healthcheck.js                 # services, edge, standalone
 *   node deploy/healthcheck.js /v1/models      # the upstream simulator (it has no /health routes)
 */
'use strict';
const http = require('node:http');

const port = process.env.PORT || process.env.UNIGATE_SIM_PORT || '8080';
const path = process.argv[2] || '/health/ready';
const req = http.get({ host: '127.0.0.1', port, path, timeout: 3000, agent: false }, (res) => {
  res.resume();
  process.exit(res.statusCode === 200 ? 0 : 1);
});
req.on('timeout', () => req.destroy(new Error('timeout')));
req.on('error', () => process.exit(1));
