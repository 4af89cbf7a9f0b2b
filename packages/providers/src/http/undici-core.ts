/**
 * The part of undici the gateway uses: `Pool` (upstream connections), `Agent` (guarded fetches and
 * webhooks) and their `request()`. undici's index also loads fetch, WebSocket, EventSource, the HTTP
 * cache and the mocks, 110 modules that cost every process ~8 MiB of resident memory (a bare process:
 * 73.4 MiB with the index, 65.5 with these; docs/operations.md, "Memory"). So this loads the three
 * classes from their own modules and, as the index does, gives dispatchers the request API.
 *
 * The paths are undici's own layout, which its package does not export as API: the version is pinned,
 * and test/undici-core.test.ts checks that these are the very classes the index exports.
 */
import type { Agent as UndiciAgent, Dispatcher as UndiciDispatcher, Pool as UndiciPool } from 'undici';

/* eslint-disable @typescript-eslint/no-require-imports -- undici's internal modules have no typings */
const DispatcherClass = require('undici/lib/dispatcher/dispatcher') as typeof UndiciDispatcher;
const api = require('undici/lib/api') as Pick<UndiciDispatcher, 'request' | 'stream' | 'pipeline' | 'connect' | 'upgrade'>;
export const Pool = require('undici/lib/dispatcher/pool') as typeof UndiciPool;
export const Agent = require('undici/lib/dispatcher/agent') as typeof UndiciAgent;
/* eslint-enable @typescript-eslint/no-require-imports */

// What undici's index does on load: `request()` and friends are methods of every dispatcher.
Object.assign(DispatcherClass.prototype, api);
export type Pool = UndiciPool;
export type Agent = UndiciAgent;
