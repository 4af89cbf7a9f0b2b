/**
 * `npm start` (start.ts has the whole story). This entry starts the embedded Postgres first and only
 * then loads the rest of the gateway: on the store's worker thread, a new data directory's copy of
 * the template cluster and PGlite's start (about a second of WASM) run beside the main thread's
 * loading of the gateway's modules (one to two seconds, synchronous) instead of after it.
 */
import '@unigate/platform/telemetry-register';
import { resolve } from 'node:path';
import { launchEmbeddedPostgres, type EmbeddedPostgres } from '@unigate/platform/embedded-postgres';

let database: Promise<EmbeddedPostgres> | undefined;

async function main() {
  // Its database, journal, results and generated secrets.
  const dataDir = resolve(process.env.UNIGATE_DATA_DIR ?? './.unigate');
  // The directory and the worker are made first: both need this event loop, which loading blocks.
  ({ started: database } = await launchEmbeddedPostgres(dataDir));
  // start() awaits it and reports its failure; until then a rejection is not an unhandled one.
  database.catch(() => undefined);
  // Only now: the rest of the gateway loads (synchronously) while Postgres starts on its thread.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { start } = require('./start') as typeof import('./start');
  await start(dataDir, database);
}

main().catch(async (err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  // The database closed cleanly (a checkpoint), not left to crash recovery on the next start.
  const closed = database?.then((pg) => pg.close()).catch(() => undefined);
  await Promise.race([closed, new Promise((done) => setTimeout(done, 5_000).unref())]);
  process.exit(1);
});
