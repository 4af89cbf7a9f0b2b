/**
 * Postgres inside the process for standalone mode: PGlite (Postgres compiled to WASM) persisted in a
 * directory, served on a loopback port by a small wire server (embedded-postgres-worker.ts) so the
 * same `pg` driver and TypeORM code that talk to a real server talk to it.
 *
 * It runs on a worker thread: PGlite executes queries synchronously in WASM, which would otherwise
 * stall the gateway's event loop for the duration of every query (and PGlite's ESM-style dynamic
 * imports also need a plain Node context, not a test runner's VM).
 *
 * Concurrency contract (INFRA.md): PGlite has one backend; the wire server multiplexes connections
 * and runs one transaction at a time — a query from another connection waits until the open
 * transaction ends. That gives serializable money mutations, provided (1) every transaction only
 * uses its own EntityManager (never the DataSource's, which would wait on itself) and (2) services use
 * a pool of one connection (`EMBEDDED_POOL_SIZE`) so queueing happens in the pool, not inside the store.
 */
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { EMBEDDED_WORKER_SOURCE } from './embedded-postgres-worker';

export const EMBEDDED_POOL_SIZE = 1;

export interface EmbeddedPostgres {
  /** postgres://… URL of the loopback server; pass it to createDataSource. */
  url: string;
  close(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** Socket connections accepted at once: one pool per service plus migration side connections. */
  maxConnections?: number;
  /** Port on 127.0.0.1 (default 0: any free port). */
  port?: number;
}

type WorkerMessage = { type: 'ready'; conn: string } | { type: 'error'; message: string } | { type: 'closed' };

export async function startEmbeddedPostgres(dataDir: string, opts: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgres> {
  const dir = resolve(dataDir);
  await mkdir(dir, { recursive: true });
  const worker = new Worker(EMBEDDED_WORKER_SOURCE, {
    eval: true,
    workerData: {
      dataDir: dir,
      port: opts.port ?? 0,
      maxConnections: opts.maxConnections ?? 64,
      pglite: require.resolve('@electric-sql/pglite'),
    },
  });
  const conn = await new Promise<string>((ok, fail) => {
    const onExit = (code: number) => fail(new Error(`embedded Postgres worker exited with code ${code}`));
    worker.once('error', fail);
    worker.once('exit', onExit);
    worker.once('message', (msg: WorkerMessage) => {
      worker.off('exit', onExit);
      worker.off('error', fail);
      if (msg.type === 'ready') ok(msg.conn);
      else fail(new Error(`embedded Postgres failed to start: ${msg.type === 'error' ? msg.message : msg.type}`));
    });
  });

  let closing: Promise<void> | undefined;
  return {
    url: `postgres://postgres@${conn}/postgres`,
    close: () =>
      (closing ??= new Promise<void>((done) => {
        worker.once('exit', () => done());
        worker.postMessage('close');
      })),
  };
}
