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
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { CLUSTER_COPYING, CLUSTER_MARKER, defaultTemplateDir, ensureTemplate } from './cluster-template';
import { EMBEDDED_WORKER_SOURCE } from './embedded-postgres-worker';

export const EMBEDDED_POOL_SIZE = 1;

/**
 * Postgres settings of the embedded store. Its tables are small and written in group commits, so
 * 32 MB of shared buffers (Postgres' default is 128 MB, all of it resident once touched) is plenty.
 */
export const EMBEDDED_POSTGRES_CONF = ['shared_buffers=32MB'];

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
  /**
   * Where a new data directory is copied from (cluster-template.ts): default, a template beside the
   * installed PGlite, made on first use; null runs initdb in the directory itself.
   */
  template?: string | null;
}

const PGLITE_ENTRY = require.resolve('@electric-sql/pglite');

/** An error's `postgres`: what Postgres logged when it could not open the cluster (PANIC, FATAL, DETAIL lines). */
type WorkerMessage =
  { type: 'ready'; conn: string } | { type: 'initialized' } | { type: 'error'; message: string; postgres?: string[] } | { type: 'closed' };

/** Postgres refused to open the cluster, and said why. */
class ClusterOpenError extends Error {
  constructor(readonly postgres: string[]) {
    super(`embedded Postgres failed to start: ${postgres.join('; ')}`);
  }
}

/** `initOnly`: run initdb in `dir` and exit. `copyFrom`: a template the worker copies into `dir` first. */
type WorkerJob = { initOnly: true } | { initOnly: false; copyFrom?: string };

function startWorker(dir: string, opts: EmbeddedPostgresOptions, job: WorkerJob): { worker: Worker; started: Promise<WorkerMessage> } {
  const worker = new Worker(EMBEDDED_WORKER_SOURCE, {
    eval: true,
    workerData: {
      dataDir: dir,
      port: opts.port ?? 0,
      maxConnections: opts.maxConnections ?? 64,
      pglite: PGLITE_ENTRY,
      postgresqlconf: EMBEDDED_POSTGRES_CONF,
      marker: CLUSTER_MARKER,
      copying: CLUSTER_COPYING,
      ...job,
    },
  });
  const started = new Promise<WorkerMessage>((ok, fail) => {
    const onExit = (code: number) => fail(new Error(`embedded Postgres worker exited with code ${code}`));
    worker.once('error', fail);
    worker.once('exit', onExit);
    worker.once('message', (msg: WorkerMessage) => {
      worker.off('exit', onExit);
      worker.off('error', fail);
      if (msg.type === 'error')
        fail(msg.postgres ? new ClusterOpenError(msg.postgres) : new Error(`embedded Postgres failed to start: ${msg.message}`));
      else ok(msg);
    });
  });
  return { worker, started };
}

/**
 * initdb in `dir`, by a worker of its own that then exits: initdb's WASM memory (about 500 MB
 * resident) would otherwise stay with the process for its lifetime.
 */
async function initdb(dir: string, opts: EmbeddedPostgresOptions): Promise<void> {
  const init = startWorker(dir, opts, { initOnly: true });
  const exited = new Promise<void>((done) => init.worker.once('exit', () => done()));
  await init.started;
  await exited;
}

/**
 * Makes the template new data directories are copied from (default: the installed PGlite's, where
 * every start looks) unless it exists, and returns where it is. For an image build or an install
 * step: a container's first start then copies it (0.2 s) instead of running initdb (6–7 s, ~500 MB),
 * also on a read-only root filesystem, where no start could make it.
 */
export async function prepareEmbeddedTemplate(template = defaultTemplateDir(PGLITE_ENTRY)): Promise<string> {
  await ensureTemplate(template, (into) => initdb(into, {}));
  return template;
}

/**
 * A new cluster for `dir`: the template it is to be copied from (made first when there is none), or
 * none when no template can be had, and initdb made the cluster in `dir` itself.
 */
async function initialize(dir: string, opts: EmbeddedPostgresOptions): Promise<string | undefined> {
  try {
    const template = opts.template === undefined ? defaultTemplateDir(PGLITE_ENTRY) : opts.template;
    if (template) {
      await ensureTemplate(template, (into) => initdb(into, opts));
      return template;
    }
  } catch {
    // No template to be had (a read-only install, a full disk): initdb here, as without one.
  }
  await initdb(dir, opts);
  return undefined;
}

export async function startEmbeddedPostgres(dataDir: string, opts: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgres> {
  return (await launchEmbeddedPostgres(dataDir, opts)).started;
}

/**
 * startEmbeddedPostgres in two steps: resolves as soon as the worker runs, with `started` for the
 * rest (a new directory's copy of the template, then Postgres), so a caller can do other work while
 * they run on the worker's thread. Work of the caller's that blocks its event loop must wait for this
 * step: making the directory and the worker are asynchronous.
 */
export async function launchEmbeddedPostgres(
  dataDir: string,
  opts: EmbeddedPostgresOptions = {},
): Promise<{ started: Promise<EmbeddedPostgres> }> {
  const dir = resolve(dataDir);
  // Its owner's only: PGlite writes the store's files world-writable (0666), and beside them go the
  // ledger journal, result files and secrets. A directory that exists keeps the mode it was given.
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const unlock = lockDataDir(dir);
  try {
    const fresh = !existsSync(join(dir, CLUSTER_MARKER));
    if (fresh) refuseDamagedCluster(dir);
    // The copy of a template (~40 MB in ~1,000 files) is the worker's: it then runs beside the caller.
    const copyFrom = fresh ? await initialize(dir, opts) : undefined;
    const { worker, started } = startWorker(dir, opts, { initOnly: false, copyFrom });
    return {
      started: started.then(
        (msg) => running(worker, msg, unlock),
        (err: unknown) => {
          unlock();
          // A cluster that was there and Postgres cannot open. One this start made is not the
          // directory's damage (a bad template, say): that keeps Postgres' words alone.
          throw !fresh && err instanceof ClusterOpenError ? clusterOpenFailure(dir, err.postgres) : err;
        },
      ),
    };
  } catch (err) {
    unlock();
    throw err;
  }
}

/** The file naming the process whose store runs on a data directory. */
export const DATA_DIR_LOCK = 'unigate.pid';
/** Data directories this process holds (a pid file naming this process may be left by an earlier one with the same pid: a container's 1). */
const held = new Set<string>();

/**
 * One process per data directory: two would each run a Postgres of their own on the same files (and
 * journal), and whichever wrote last would silently drop the other's ledger. A pid file left by a
 * process that died (kill -9) is taken over, also when its pid now belongs to another process: the
 * file names the process's identity too (processIdentity), and a restarted container or a rebooted
 * host reuses pids. Returns the release.
 */
function lockDataDir(dir: string): () => void {
  const path = join(dir, DATA_DIR_LOCK);
  const own = `${process.pid} ${processIdentity(process.pid)}`.trim();
  for (let attempt = 0; ; attempt++) {
    if (held.has(dir)) throw new Error(`data directory ${dir} is already in use by this process`);
    try {
      writeFileSync(path, `${own}\n`, { flag: 'wx', mode: 0o600 });
      held.add(dir);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        held.delete(dir);
        rmSync(path, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (attempt >= 40) throw new Error(`data directory ${dir}: its lock file ${path} could not be taken over`);
    }
    const holder = readHolder(path);
    if (holder.pid !== process.pid && holderRuns(holder)) {
      throw new Error(
        `data directory ${dir} is in use by process ${holder.pid} (${path}): stop it first, or delete that file if no Unigate runs there`,
      );
    }
    // Left by a process that died: taken over — by one process only. Two starting at once both read the
    // dead pid; without the claim, the second would delete the file the first had just written.
    if (!takeOver(path, holder)) sleepSync(50);
  }
}

/** Blocks this thread for `ms` (start-up only, while another process finishes a takeover). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Deletes the lock file at `path` if it still names `holder`, under a claim only one process can make
 * (`wx`); false when another process holds the claim. A claim left by a process that died
 * mid-takeover is cleared after a few seconds.
 */
function takeOver(path: string, holder: LockHolder): boolean {
  const claim = `${path}.takeover`;
  try {
    writeFileSync(claim, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const made = statSync(claim, { throwIfNoEntry: false })?.mtimeMs;
    if (made !== undefined && Date.now() - made > STALE_CLAIM_MS) rmSync(claim, { force: true });
    return false;
  }
  try {
    const now = readHolder(path);
    if (now.text === holder.text || Number.isNaN(now.pid)) rmSync(path, { force: true });
    return true;
  } finally {
    rmSync(claim, { force: true });
  }
}

const STALE_CLAIM_MS = 5_000;

/** A lock file's text: the holder's pid, then its identity (absent in a file an older version wrote). */
interface LockHolder {
  text: string;
  pid: number;
  identity: string;
}

/** The lock file's holder; its pid NaN when the file is gone meanwhile (its holder stopped) and the next attempt takes it. */
function readHolder(path: string): LockHolder {
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch {
    return { text: '', pid: NaN, identity: '' };
  }
  const [pid, identity = ''] = text.split(' ');
  return { text, pid: Number(pid), identity };
}

/** Whether the lock's holder runs: its pid does, and is still that process where its identity can be read. */
function holderRuns(holder: LockHolder): boolean {
  if (!processRuns(holder.pid)) return false;
  const now = holder.identity && processIdentity(holder.pid);
  return !now || now === holder.identity;
}

let bootId: string | undefined;

/**
 * What tells a process apart from a later one given its pid: the host's boot and the process's start
 * time since that boot (Linux's /proc: the boot id and field 22 of /proc/<pid>/stat). '' where /proc
 * cannot say, and the pid alone then decides.
 */
export function processIdentity(pid: number): string {
  try {
    bootId ??= readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Counted after the command name's closing parenthesis (the name may hold spaces): state is field 3.
    const startTicks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return startTicks ? `${bootId}:${startTicks}` : '';
  } catch {
    return '';
  }
}

function processRuns(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A directory without the cluster's marker gets a new cluster copied over it, which is right for a new
 * directory or a copy cut short (it says so: CLUSTER_COPYING), but a cluster that lost the marker
 * otherwise is a damaged one, holding the ledger: copying over it would replace every account and
 * charge with an empty store, silently.
 */
function refuseDamagedCluster(dir: string): void {
  if (!existsSync(join(dir, 'global', 'pg_control')) || existsSync(join(dir, CLUSTER_COPYING))) return;
  throw new Error(
    `data directory ${dir} holds a Postgres cluster without its ${CLUSTER_MARKER} file: it is damaged, and a start would ` +
      `replace it (and the ledger in it) with an empty one. Restore ${CLUSTER_MARKER} or the directory from a backup; ` +
      `to start afresh, move the directory away`,
  );
}

/**
 * Why an existing cluster did not open, for the operator. A full disk or a permission refused (a
 * crash's recovery writes before it opens) is the host's, not the data's: the cluster is fine and
 * the message says what to fix. Anything else is damage (a truncated pg_control, a WAL segment gone
 * or garbled): nothing is repaired or replaced, since a repair (pg_resetwal) or a new cluster would
 * lose ledger entries without saying which.
 */
export function clusterOpenFailure(dir: string, postgres: string[]): Error {
  const said = `(Postgres: ${postgres.join('; ')})`;
  const host = postgres.join('\n');
  if (/No space left on device|Disk quota exceeded/i.test(host))
    return new Error(
      `data directory ${dir}: the embedded database could not be opened: its disk is full ${said}. Nothing in it was changed. Free some space and start again`,
    );
  if (/Permission denied|Read-only file system/i.test(host))
    return new Error(
      `data directory ${dir}: the embedded database could not be opened: its files cannot be written ${said}. Nothing in it was changed. Give the gateway's user write access to the directory (or mount it read-write) and start again`,
    );
  return new Error(
    `data directory ${dir}: the embedded database there is damaged and could not be opened ${said}. Nothing in it was changed. Restore the directory from a backup ` +
      `(docs/operations.md); or move it aside, keeping it, and start again with an empty one (no accounts, keys or balances)`,
  );
}

function running(worker: Worker, msg: WorkerMessage, unlock: () => void): EmbeddedPostgres {
  if (msg.type !== 'ready') {
    unlock();
    throw new Error(`embedded Postgres failed to start: ${msg.type}`);
  }
  let closing: Promise<void> | undefined;
  return {
    url: `postgres://postgres@${msg.conn}/postgres`,
    close: () =>
      (closing ??= new Promise<void>((done) => {
        worker.once('exit', () => {
          unlock();
          done();
        });
        worker.postMessage('close');
      })),
  };
}
