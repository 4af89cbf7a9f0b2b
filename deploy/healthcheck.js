#!/usr/bin/env node
/**
 * Container health check without curl (the runtime image has none): GET http://127.0.0.1:<port><path>,
 * exit 0 on 200. Port and path follow the app APP names:
 * - the upstream simulator (APP=upstream-sim): its own port rule, UNIGATE_SIM_PORT, else PORT, else
 *   8090 (the image sets PORT=8080 for every app), and /v1/models (it has no /health routes);
 * - any other app: PORT, else UNIGATE_SIM_PORT, else 8080, and /health/ready.
 * A first argument replaces the path.
 *   node deploy/healthcheck.js                 # services, edge, standalone, the simulator
 *   node deploy/healthcheck.js /v1/models
 */
'use strict';
const http = require('node:http');

const sim = process.env.APP === 'upstream-sim';
const port = sim ? process.env.UNIGATE_SIM_PORT || process.env.PORT || '8090' : process.env.PORT || process.env.UNIGATE_SIM_PORT || '8080';
const path = process.argv[2] || (sim ? '/v1/models' : '/health/ready');
const req = http.get({ host: '127.0.0.1', port, path, timeout: 3000, agent: false }, (res) => {
  res.resume();
  process.exit(res.statusCode === 200 ? 0 : 1);
});
req.on('timeout', () => req.destroy(new Error('timeout')));
req.on('error', () => process.exit(1));
